/** The size limits a run and our clients apply alike, before anything is sent or started. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits.js';
import { runPolicyTooLarge } from './run-policy-size.js';

describe('runPolicyTooLarge', () => {
  const entries = (n: number) => Array.from({ length: n }, (_, i) => `group:team-${String(i).padStart(6, '0')}`);

  it('takes a policy and breakpoints up to the limit together, and none at all', () => {
    expect(runPolicyTooLarge({})).toBeUndefined();
    expect(runPolicyTooLarge({ approval: { tools: { write_file: { approvers: entries(100) } } } })).toBeUndefined();
  });

  it('refuses them once together they pass it, saying how large they are', () => {
    const half = { approvers: entries(1800) };
    expect(runPolicyTooLarge({ approval: { tools: { write_file: half } } })).toBeUndefined();
    expect(runPolicyTooLarge({ approval: { tools: { write_file: half } }, interrupt: { beforeTools: half } })).toMatch(
      new RegExp(`^approval and interrupt take \\d+ bytes of JSON together; the limit is ${LIMITS.runPolicyBytes}, `),
    );
  });
});
