import type { Context } from '@temporalio/activity';
import { listingsDueSignal } from '../contract/messages.js';

/** The longest wait a Node timer takes (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A decided call's tool, started while its run holds back what lists show of it (src/workflows/run-visibility.ts,
 * deferListings): if the tool still runs `afterMs` from now, it wakes its run with the `listingsDue` signal, and the
 * run publishes them. Done here rather than by a timer in the run, which cost the decision's own workflow task a
 * command and several promises. Best effort: a signal that fails is logged, and the tool's result publishes them
 * anyway. A local activity never needs it (the run publishes before one starts), nor a call that asks for none.
 *
 * @returns stops the wait (call it when the tool ends)
 */
export function wakeRunAfter(activity: Context, afterMs: unknown): () => void {
  const run = activity.info.workflowExecution;
  if (activity.info.isLocal || !run || typeof afterMs !== 'number' || !(afterMs >= 0)) return () => {};
  const { workflowId, runId } = run;
  // Async, so that a client the worker cannot give (Context.client throws then) is a rejection, never an exception
  // thrown out of a timer, which would end the worker process.
  const wake = async () => activity.client.workflow.getHandle(workflowId, runId).signal(listingsDueSignal);
  const timer = setTimeout(
    () => wake().catch((err: unknown) => activity.log.warn('Could not wake the run to publish its listings', { problem: String(err) })),
    Math.min(afterMs, MAX_TIMER_MS),
  );
  // Never what keeps a stopping worker's process alive.
  timer.unref();
  return () => clearTimeout(timer);
}
