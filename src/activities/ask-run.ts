/** How a model call's worker asks the call's run for the messages it names (src/activities/sent-messages-cache.ts). */
import type { Info } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MESSAGES_NOT_HELD, MESSAGES_UNAVAILABLE } from '../contract/message-chain.js';

/**
 * The worker's connection does not end a request on an abort signal (only on its deadline), so the attempt's
 * cancellation ends the wait for the answer instead.
 */
export function untilCancelled<T>(signal: AbortSignal, request: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancelled = () => reject(new CancelledFailure('the model call was cancelled while asking its run for its messages'));
    if (signal.aborted) cancelled();
    signal.addEventListener('abort', cancelled, { once: true });
    request.then(resolve, reject).finally(() => signal.removeEventListener('abort', cancelled));
  });
}

/**
 * Workers before patch set 34 reported "not held" as a final `MessagesUnavailable`, and workflow code of that time
 * sends the call whole only on that type. A call scheduled by such code (a fleet mid-deploy, its activities already on
 * this code) does not list `MessagesNotHeld` as final, so its last attempt reports the type that code knows; code of
 * today takes either.
 */
export function asScheduledFor(info: Pick<Info, 'attempt' | 'retryPolicy'>, err: unknown): unknown {
  if (!(err instanceof ApplicationFailure) || err.type !== MESSAGES_NOT_HELD) return err;
  const retry = info.retryPolicy;
  if (retry?.nonRetryableErrorTypes?.includes(MESSAGES_NOT_HELD)) return err;
  const lastAttempt = !!retry?.maximumAttempts && info.attempt >= retry.maximumAttempts;
  return lastAttempt ? ApplicationFailure.nonRetryable(err.message, MESSAGES_UNAVAILABLE) : err;
}
