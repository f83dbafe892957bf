import type { Context } from '@temporalio/activity';

/**
 * Heartbeats on a timer until stopped. Cancellation reaches an activity only through heartbeat responses, so a
 * long model call or tool must keep them flowing to be cancellable.
 */
export function keepHeartbeating(activity: Context, everyMs: number): () => void {
  const timer = setInterval(() => activity.heartbeat(), everyMs);
  return () => clearInterval(timer);
}
