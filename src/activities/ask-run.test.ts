import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGES_NOT_HELD, MESSAGES_UNAVAILABLE } from '../contract/message-chain.js';
import { asScheduledFor, untilCancelled } from './ask-run.js';

const never = new Promise<never>(() => undefined);

describe('untilCancelled', () => {
  it('ends the wait for an answer that never comes when the attempt is cancelled', async () => {
    const controller = new AbortController();
    const waiting = untilCancelled(controller.signal, never);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(CancelledFailure);
  });

  it('does not start waiting for an attempt already cancelled', async () => {
    await expect(untilCancelled(AbortSignal.abort(), never)).rejects.toBeInstanceOf(CancelledFailure);
  });

  it('gives the answer, or the failure to ask, of an attempt not cancelled', async () => {
    const controller = new AbortController();
    await expect(untilCancelled(controller.signal, Promise.resolve(['answer']))).resolves.toEqual(['answer']);
    const refused = new Error('query timed out');
    await expect(untilCancelled(controller.signal, Promise.reject(refused))).rejects.toBe(refused);
    // A cancellation after the answer changes nothing.
    controller.abort();
  });
});

describe('asScheduledFor', () => {
  const notHeld = ApplicationFailure.retryable('the run does not hold the messages', MESSAGES_NOT_HELD);
  const retry = (nonRetryableErrorTypes?: string[]) => ({ maximumAttempts: 10, nonRetryableErrorTypes });

  it("keeps 'not held' for a call whose code takes it as final, on any attempt", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), (attempt) => {
        expect(asScheduledFor({ attempt, retryPolicy: retry([MESSAGES_NOT_HELD]) }, notHeld)).toBe(notHeld);
      }),
    );
  });

  it("reports 'not held' as a final MessagesUnavailable on the last attempt of a call whose code does not know it", () => {
    for (const retryPolicy of [retry(), retry([]), retry(['SomethingElse'])]) {
      expect(asScheduledFor({ attempt: 9, retryPolicy }, notHeld)).toBe(notHeld);
      const last = asScheduledFor({ attempt: 10, retryPolicy }, notHeld);
      expect(last).toBeInstanceOf(ApplicationFailure);
      expect(last).toMatchObject({ type: MESSAGES_UNAVAILABLE, nonRetryable: true, message: notHeld.message });
    }
  });

  it('leaves every other failure, and a call with no last attempt, as they are', () => {
    const unavailable = ApplicationFailure.retryable('could not ask', MESSAGES_UNAVAILABLE);
    const cancelled = new CancelledFailure('cancelled');
    for (const err of [unavailable, cancelled, new Error('boom'), 'text']) {
      expect(asScheduledFor({ attempt: 10, retryPolicy: retry() }, err)).toBe(err);
    }
    expect(asScheduledFor({ attempt: 50, retryPolicy: { maximumAttempts: 0 } }, notHeld)).toBe(notHeld);
    expect(asScheduledFor({ attempt: 50, retryPolicy: undefined }, notHeld)).toBe(notHeld);
  });
});
