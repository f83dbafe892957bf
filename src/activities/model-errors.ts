/** Maps failures of the model API onto Temporal's retry: transient ones retry (honouring retry-after), others fail. */
import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { ModelRequestRejectedError } from '../errors.js';

const RETRYABLE_STATUS = new Set([408, 409, 429]);

export function toModelFailure(err: unknown): Error {
  if (err instanceof OpenAI.APIConnectionError) {
    return ApplicationFailure.create({ type: 'ModelUnavailable', message: `Could not reach the model API: ${err.message}` });
  }
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const apiMessage = (err.error as { message?: string } | undefined)?.message ?? err.message;
    if (RETRYABLE_STATUS.has(err.status) || err.status >= 500) {
      return ApplicationFailure.create({
        type: 'ModelUnavailable',
        message: `The model API answered ${err.status}: ${apiMessage}`,
        nextRetryDelay: retryAfterMs(err.headers),
      });
    }
    return new ModelRequestRejectedError(err.status, apiMessage).toFailure();
  }
  if (err instanceof OpenAI.APIError) {
    // An error event in the middle of a stream: the request was accepted (200), so another attempt may succeed.
    return ApplicationFailure.create({ type: 'ModelUnavailable', message: `The model API failed mid-stream: ${err.message}` });
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date; undefined lets the retry policy decide. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
