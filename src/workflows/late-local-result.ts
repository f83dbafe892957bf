/**
 * Updates that come with a local activity's result that reached the run late are refused.
 *
 * A query that rides on a workflow task while a local activity runs makes Core end that task early: the activity's
 * marker goes out with the task's commands, but the run gets the result only in the next task, with the updates and
 * signals that reached the server meanwhile. A replay delivers that result in the first task, alone, and the rest in
 * the next. An update accepted there was accepted before the next model call live and after it on replay, and the
 * closed run failed every query and every replay with a nondeterminism error (test/late-local-result.test.ts; first
 * seen with a watcher's stream poll as the run resolved its agent).
 *
 * So the run refuses updates in that activation (`RunBusy`, src/contract/refusal-codes.ts): a refused update leaves no
 * trace in history, no replay sees it, and the sender sends it again a moment later (HitlClient and the stream's
 * subscribers do so themselves). Signals that come there are applied as before: the test replays one, and the run's
 * stream reads the same live and replayed.
 *
 * The SDK runs no interceptor for its own updates (the stream's poll): their validators call `refuseWhileLate`.
 */
import { ApplicationFailure, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { RUN_BUSY_TYPE, type RefusalCode } from '../contract/refusal-codes.js';
import { carriesLateLocalResult } from './activation-jobs.js';

/** Whether the activation being applied brings a local activity's result late, with signals or updates. Per run. */
let late = false;

/** For an update's validator: refuses the update while a late result is applied. */
export function refuseWhileLate(): void {
  if (!late) return;
  throw ApplicationFailure.create({
    type: RUN_BUSY_TYPE,
    message: 'The run was applying a result that reached it late; nothing was recorded: send the update again',
    nonRetryable: true,
    details: [{ code: 'busy' satisfies RefusalCode }],
  });
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  internals: [
    {
      activate(input, next) {
        late = carriesLateLocalResult(input.activation.jobs ?? []);
        return next(input);
      },
    },
  ],
  inbound: [
    {
      validateUpdate(input, next) {
        refuseWhileLate();
        return next(input);
      },
    },
  ],
});
