import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { heldAsOf } from './held-approvals.js';

const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const call = (extra: Partial<PendingApproval>) => ({ id: 'call-1', toolName: 'cancel_order', ...extra }) as PendingApproval;

describe('heldAsOf: a pending call as a viewer sees it now', () => {
  it('drops the approvals whose until has passed, and the list when none is left', () => {
    const ann = { approver: 'ann', at: at(-20_000), until: at(-10_000) };
    const bob = { approver: 'bob', at: at(-5_000), until: at(5_000) };
    expect(heldAsOf(call({ approvals: [ann, bob] }), NOW).approvals).toEqual([bob]);
    expect(heldAsOf(call({ approvals: [ann, bob] }), NOW - 15_000).approvals).toEqual([ann, bob]);
    expect(heldAsOf(call({ approvals: [ann] }), NOW)).not.toHaveProperty('approvals');
  });

  it('leaves approvals that say no until as they are listed (counted before patch set 21)', () => {
    const c = call({ validFor: '1m', approvals: [{ approver: 'ann', at: at(-86_400_000) }] });
    expect(heldAsOf(c, NOW)).toBe(c);
    expect(heldAsOf(call({}), NOW)).toEqual(call({}));
  });
});
