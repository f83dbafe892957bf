/**
 * The history figures a run decides to continue as new from (continue-as-new.ts), read only in activations a replay
 * sees with the same figures as the live run did.
 *
 * A query answered while a local activity runs makes Core end that workflow task early and deliver the activity's
 * result in a new task, a few events further on; a replay delivers the result in the first task. Read right after a
 * local tool, `workflowInfo().historyLength` is then higher live than in the replay: the live run continued as new
 * where its replay pauses, and the closed run failed every query and replay (test/continue-as-new-cut.test.ts). An
 * activation that only resolves local activities keeps the figures of the activation before it, in both.
 *
 * A workflow interceptor sees each activation's jobs; the bundle and the worker install it (src/workflow-bundle.ts).
 * A bundle built without it reads the live figures, as runs did before.
 */
import { log, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

type HistoryReading = { readonly historyLength: number; readonly historySize: number; readonly continueAsNewSuggested: boolean };

/** Module state is per run. */
let reading: HistoryReading | undefined;
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

type Job = {
  queryWorkflow?: unknown;
  resolveActivity?: { isLocal?: boolean | null } | null;
  notifyHasPatch?: unknown;
  updateRandomSeed?: unknown;
  removeFromCache?: unknown;
};

/** Jobs that ride along with others, or that replay does not see where the live run did. */
function followsOthers(job: Job): boolean {
  return Boolean(job.queryWorkflow || job.resolveActivity?.isLocal || job.notifyHasPatch || job.updateRandomSeed || job.removeFromCache);
}

function noteActivation(jobs: readonly Job[]): void {
  if (jobs.some((job) => !followsOthers(job))) {
    const { historyLength, historySize, continueAsNewSuggested } = workflowInfo();
    reading = { historyLength, historySize, continueAsNewSuggested };
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
