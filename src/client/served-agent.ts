/**
 * Whether the workers serve a run's agent, for a client that cannot know it beforehand (the CLI, which may not
 * see the agents the workers load). The run's first workflow task resolves the agent: a name the workers do not
 * serve fails the run there, with the agents they do serve in the failure's message.
 */
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { TemporalFailure } from '@temporalio/common';
import { UnknownAgentError } from '../errors.js';

/** A run whose first workflow task has completed has at least these events (started, task scheduled, started, completed). */
const FIRST_TASK_DONE_EVENTS = 4;

/**
 * Waits, up to `withinMs`, for the run's first workflow task. Throws UnknownAgentError (with the workers' own
 * words) when that task failed the run for its agent; returns otherwise, including when no worker has taken the
 * run yet, or the run failed for another reason (its result says why).
 */
export async function checkAgentServed(client: Client, workflowId: string, agent: string, withinMs = 10_000): Promise<void> {
  const handle = client.workflow.getHandle(workflowId);
  const deadline = Date.now() + withinMs;
  for (;;) {
    const { status, historyLength } = await handle.describe();
    if (status.name === 'FAILED') break;
    if (status.name !== 'RUNNING' || historyLength >= FIRST_TASK_DONE_EVENTS || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const failure = await handle.result().then(
    () => undefined,
    (err: unknown) => (err instanceof WorkflowFailedError ? err.cause : undefined),
  );
  for (let cause: unknown = failure; cause instanceof TemporalFailure; cause = cause.cause) {
    if ('type' in cause && cause.type === UnknownAgentError.errorName) {
      // The workers' message names the agents they serve, which this client does not know.
      throw Object.assign(new UnknownAgentError(agent, []), { message: cause.message });
    }
  }
}
