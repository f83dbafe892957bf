/** Settles one step's calls, which run side by side, and ends them together. */
import { CancellationScope } from '@temporalio/workflow';
import type { AgentRun } from './agent-run.js';
import { PATCHES, takesPatch } from './patches.js';
import { settleCall } from './tool-execution.js';

/**
 * Every call of the step, settled at once. When one fails the run (a tool whose `onError` says `fail`), or the run
 * is cancelled, the others are cancelled and waited for before the failure goes on (patch stepCallsEndTogether):
 * a sub-agent is then cancelled and ends as such, and a tool's activity is asked to stop. Before, the run closed at
 * the first failure, the waiting approval's, and Temporal terminated the sub-agents still running.
 */
export async function settleStepCalls(run: AgentRun, ownIds: boolean): Promise<void> {
  if (!takesPatch(PATCHES.stepCallsEndTogether)) {
    await Promise.all(run.book.calls.map((call) => settleCall(run, call, ownIds)));
    return;
  }
  const scope = new CancellationScope();
  const settling = run.book.calls.map((call) => scope.run(() => settleCall(run, call, ownIds)));
  try {
    await Promise.all(settling);
  } catch (err) {
    scope.cancel();
    await Promise.allSettled(settling);
    throw err;
  }
}
