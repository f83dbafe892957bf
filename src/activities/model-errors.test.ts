import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { retryAfterMs, toModelFailure } from './model-errors.js';

const apiError = (status: number, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { error: { message: `status ${status}` } }, undefined, new Headers(headers));

describe('toModelFailure', () => {
  it.each([408, 409, 429, 500, 503])('retries %i', (status) => {
    const failure = toModelFailure(apiError(status)) as ApplicationFailure;
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure.nonRetryable).toBeFalsy();
    expect(failure.message).toBe(`The model API answered ${status}: status ${status}`);
  });

  it.each([400, 401, 403, 404, 422])('does not retry %i and keeps the API message', (status) => {
    const failure = toModelFailure(apiError(status)) as ApplicationFailure;
    expect(failure.nonRetryable).toBe(true);
    expect(failure.type).toBe('ModelRequestRejectedError');
    expect(failure.message).toBe(`The model API rejected the request (${status}): status ${status}`);
  });

  it('retries connection errors', () => {
    const failure = toModelFailure(new OpenAI.APIConnectionError({ message: 'ECONNREFUSED' })) as ApplicationFailure;
    expect(failure.type).toBe('ModelUnavailable');
    expect(failure.nonRetryable).toBeFalsy();
  });

  it('retries an error event in the middle of a stream (an API error without a status)', () => {
    const failure = toModelFailure(new OpenAI.APIError(undefined, { message: 'overloaded' }, undefined, undefined)) as ApplicationFailure;
    expect(failure.type).toBe('ModelUnavailable');
    expect(failure.nonRetryable).toBeFalsy();
    expect(failure.message).toBe('The model API failed mid-stream: overloaded');
  });

  it('honours retry-after', () => {
    expect((toModelFailure(apiError(429, { 'retry-after': '7' })) as ApplicationFailure).nextRetryDelay).toBe(7000);
  });
});

describe('retryAfterMs', () => {
  it('reads milliseconds, seconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(retryAfterMs(new Headers({ 'retry-after': inAMinute }))).toBeGreaterThan(55_000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});
