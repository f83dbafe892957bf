import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { ToolFailedError } from '../errors.js';
import { answerToolFailure, identify } from './tool-errors.js';

const failed = (cause: Error) =>
  new ActivityFailure('activity failed', 'executeTool', '1', RetryState.MAXIMUM_ATTEMPTS_REACHED, undefined, cause);
const call = { toolName: 'charge_card', callId: 'call-3' };

describe('tool-error rules', () => {
  it('names a timed-out attempt Timeout, a tool exception by its name and code, our errors by type and code', () => {
    expect(identify(failed(new TimeoutFailure('timed out', undefined, TimeoutType.START_TO_CLOSE)))).toEqual({ name: 'Timeout' });
    expect(
      identify(failed(ApplicationFailure.create({ type: 'ToolError', message: 'x', details: [{ name: 'TypeError', code: 'E1' }] }))),
    ).toEqual({
      name: 'TypeError',
      code: 'E1',
    });
    expect(
      identify(failed(ApplicationFailure.create({ type: 'ToolRefusedError', message: 'x', details: [{ code: 'tool_refused' }] }))),
    ).toEqual({
      name: 'ToolRefusedError',
      code: 'tool_refused',
    });
    // A local activity's non-retryable failure arrives bare, not wrapped in an ActivityFailure.
    const bare = ApplicationFailure.create({ type: 'ToolRefusedError', message: 'no such column', details: [{ code: 'tool_refused' }] });
    expect(identify(bare)).toEqual({ name: 'ToolRefusedError', code: 'tool_refused' });
    expect(answerToolFailure(undefined, bare, call)).toBe('Error: no such column\n Please fix your mistakes.');
  });

  it('applies a tool spec rule like an agent rule: the map, then the fallback, and fail throws', () => {
    const timeout = failed(new TimeoutFailure('timed out', undefined, TimeoutType.START_TO_CLOSE));
    const rule = { errors: { Timeout: 'The card service is slow; try once more later.' }, fallback: 'fail' as const };
    expect(answerToolFailure(rule, timeout, call)).toBe('The card service is slow; try once more later.');
    expect(() => answerToolFailure(rule, failed(new Error('declined')), call)).toThrow(ToolFailedError);
    expect(answerToolFailure(undefined, failed(new Error('declined')), call)).toBe('Error: declined\n Please fix your mistakes.');
  });
});
