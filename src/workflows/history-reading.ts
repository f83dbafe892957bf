/**
 * The history figures a run decides to continue as new from (continue-as-new.ts), read only in activations a replay
 * sees with the same figures as the live run did.
 *
 * Read right after a local tool, `workflowInfo().historyLength` can be higher live than in the replay (activation-jobs.ts):
 * the live run continued as new where its replay paused, and the closed run failed every query and replay
 * (test/continue-as-new-cut.test.ts). An activation that is not a step of the run's own keeps the figures of the
 * activation before it, in both.
 *
 * A workflow interceptor sees each activation's jobs; the bundle and the worker install it (src/workflow-bundle.ts).
 * A bundle built without it reads the live figures, as runs did before.
 */
import { log, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { isRunStep, type Job } from './activation-jobs.js';

type HistoryReading = { readonly historyLength: number; readonly historySize: number; readonly continueAsNewSuggested: boolean };

/** Module state is per run. */
let reading: HistoryReading | undefined;
/** The figures of the run's first activation: what its input and carried state already weigh. */
let atStart: HistoryReading | undefined;
let warned = false;

/** The figures of the latest activation that did more than resolve local activities (or answer queries). */
export function historyReading(): HistoryReading {
  if (reading) return reading;
  if (!warned) {
    warned = true;
    log.warn('This workflow bundle lacks the history-reading interceptor: build it with bundleWorkflows (src/workflow-bundle.ts)');
  }
  return workflowInfo();
}

/** The history's size at the run's first activation (0 in a bundle built without this interceptor). */
export function historySizeAtStart(): number {
  return atStart?.historySize ?? 0;
}

function noteActivation(jobs: readonly Job[]): void {
  if (isRunStep(jobs)) {
    const { historyLength, historySize, continueAsNewSuggested } = workflowInfo();
    reading = { historyLength, historySize, continueAsNewSuggested };
    atStart ??= reading;
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  internals: [
    {
      activate(input, next) {
        noteActivation(input.activation.jobs ?? []);
        return next(input);
      },
    },
  ],
});
