import { describe, expect, it } from 'vitest';
import { InvalidRunInputError } from '../errors.js';
import { checkStartInput, type StartInput } from './start-input.js';

const refusal = (input: Partial<StartInput>) => {
  try {
    checkStartInput({ agent: 'demo', prompt: 'hi', ...input }, undefined);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRunInputError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('checkStartInput', () => {
  it('says what a breakpoint setting of the wrong type should have been, and where it is', () => {
    expect(refusal({ interrupt: { afterModel: 'yes' as never } })).toBe(
      'Invalid agentWorkflow input: ✖ Invalid input: expected boolean or object, received string\n  → at interrupt.afterModel',
    );
  });

  it("keeps zod's words for a union alternative that got past the type check", () => {
    expect(refusal({ interrupt: { afterModel: { timeout: 'soon' } } })).toMatch(
      /^Invalid agentWorkflow input: ✖ expected a positive duration .*\n {2}→ at interrupt\.afterModel\.timeout$/,
    );
    expect(refusal({ maxSteps: 0 })).toBe('Invalid agentWorkflow input: ✖ Too small: expected number to be >=1\n  → at maxSteps');
  });
});
