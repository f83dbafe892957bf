import { describe, expect, it } from 'vitest';
import type { DecideInput } from '../schemas/decision.js';
import { decisionUpdateId } from './idempotency-key.js';

const input: DecideInput = { decisions: [{ id: 'c1', type: 'reject', message: 'no' }], approver: 'ann', groups: ['finance'] };

describe('decisionUpdateId', () => {
  it('is the same for the same key, run and decision, whatever the key order of the body', () => {
    const reordered = { groups: ['finance'], approver: 'ann', decisions: [{ message: 'no', type: 'reject', id: 'c1' }] } as DecideInput;
    expect(decisionUpdateId('k', 'run-1', reordered)).toBe(decisionUpdateId('k', 'run-1', input));
    expect(decisionUpdateId('k', 'run-1', input)).toMatch(/^http-idempotency-[0-9a-f]{64}$/);
  });

  it('differs when the key, the run, the caller or the decision does', () => {
    const base = decisionUpdateId('k', 'run-1', input);
    const others = [
      decisionUpdateId('k2', 'run-1', input),
      decisionUpdateId('k', 'run-2', input),
      decisionUpdateId('k', 'run-1', { ...input, approver: 'ben' }),
      decisionUpdateId('k', 'run-1', { ...input, decisions: [{ id: 'c1', type: 'reject', message: 'no!' }] }),
    ];
    expect(new Set([base, ...others]).size).toBe(5);
  });
});
