import { describe, expect, it } from 'vitest';
import { RunMemo } from './run-memo.js';

describe('RunMemo: a memo as lists read it', () => {
  it('reads a key that does not hold what the run writes as absent, and never throws', () => {
    for (const junk of [
      { prompt: 5, requestedBy: ['m'], startedAt: 'yesterday', pendingApprovals: 'x' },
      { pendingApprovals: [{ id: 'call-1', approvals: 'many' }] },
      { pendingApprovals: [null], startedAt: 7 },
      { pendingApprovals: { tooLarge: 'yes' } },
    ]) {
      expect(RunMemo.parse(junk), JSON.stringify(junk)).toEqual({});
    }
    expect(
      RunMemo.parse({ prompt: 'p', requestedBy: 'ann', startedAt: '2026-11-30T12:00:00.000Z', pendingApprovals: { tooLarge: true } }),
    ).toEqual({
      prompt: 'p',
      requestedBy: 'ann',
      startedAt: '2026-11-30T12:00:00.000Z',
      pendingApprovals: { tooLarge: true },
    });
  });
});
