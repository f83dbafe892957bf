import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { heldAsOf } from './held-approvals.js';

const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const at = (ageMs: number) => new Date(NOW - ageMs).toISOString();
const call = (extra: Partial<PendingApproval>) => ({ id: 'call-1', toolName: 'cancel_order', ...extra }) as PendingApproval;

describe('heldAsOf: a pending call as a viewer sees it now', () => {
  it('drops the approvals older than validFor, and the list when none is left', () => {
    const approvals = [
      { approver: 'ann', at: at(20_000) },
      { approver: 'bob', at: at(5_000) },
    ];
    expect(heldAsOf(call({ validFor: '10s', approvals }), NOW).approvals).toEqual([approvals[1]]);
    expect(heldAsOf(call({ validFor: '30s', approvals }), NOW).approvals).toEqual(approvals);
    expect(heldAsOf(call({ validFor: '1s', approvals }), NOW)).not.toHaveProperty('approvals');
  });

  it('leaves a call as it is without validFor, without approvals, or with a validFor it cannot read', () => {
    const approvals = [{ approver: 'ann', at: at(86_400_000) }];
    for (const c of [
      call({ approvals }),
      call({ validFor: '1s' }),
      call({ validFor: 'soon', approvals }),
      call({ validFor: '-5s', approvals }),
    ]) {
      expect(heldAsOf(c, NOW)).toBe(c);
    }
  });
});
