import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/common';
import { HitlError } from '../errors.js';

/**
 * Our errors and the non-retryable causes of activity failures become ApplicationFailures, which fail the run
 * with a message a person can act on. Anything else is a bug: rethrown as is, it fails the workflow task, which
 * Temporal retries until a fixed worker is deployed.
 */
export function toRunFailure(err: unknown): unknown {
  if (err instanceof HitlError) return err.toFailure();
  if ((err instanceof ActivityFailure || err instanceof ChildWorkflowFailure) && err.cause instanceof ApplicationFailure) {
    const cause = err.cause;
    return ApplicationFailure.create({
      type: cause.type ?? undefined,
      message: cause.message,
      details: cause.details ?? undefined,
      nonRetryable: true,
      cause: err,
    });
  }
  return err;
}
