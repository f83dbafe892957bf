/**
 * Work a workflow task leaves to the run's next step: run at the start of the next activation that history records
 * as a step of the run's own (activation-jobs.ts, isRecordedStep: not a local activity's result alone, nor an update
 * alone, which its validator may refuse without a trace), before its jobs are applied. So the work lands in the same
 * workflow task live and on replay, and every command it makes comes before the commands of the workflow code's
 * reaction to those jobs. A timer cancelled here resolves in a later microtask, so its cancellation is pushed before
 * any coroutine the jobs wake, with tracing's interceptors or without (test/replay.test.ts replays every history
 * both ways). A timer that fires in that same activation is cancelled before its firing is applied: Core takes a
 * cancellation of a fired timer as a no-op, and the SDK then resolves nothing for it.
 *
 * A workflow interceptor runs it; the bundle installs it (src/workflow-bundle.ts). Whoever queues work must not
 * depend on it alone: a bundle built without it never runs the queue (run-visibility.ts also wakes itself by timer).
 * Module state is per run.
 */
import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { isRecordedStep } from './activation-jobs.js';

const queued: (() => void)[] = [];

export function atNextActivation(work: () => void): void {
  queued.push(work);
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  internals: [
    {
      activate(input, next) {
        // Work queued while this activation's own jobs run waits for the one after.
        if (queued.length > 0 && isRecordedStep(input.activation.jobs ?? [])) for (const work of queued.splice(0)) work();
        return next(input);
      },
    },
  ],
});
