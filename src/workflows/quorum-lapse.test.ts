import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveApprovals } from '../policy/held-approvals.js';
import { oldestLiveApproval } from './quorum-lapse.js';

const at = (ms: number) => new Date(ms).toISOString();
const NOW = Date.parse('2026-11-30T12:00:00.000Z');

describe('quorum approvals that lapse', () => {
  it('keeps exactly the approvals given within validFor of now, in their order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 60_000 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 30_000 }),
        (ages, validForMs) => {
          const approvals = ages.map((age, i) => ({ approver: `a${i}`, at: at(NOW - age) }));
          const live = liveApprovals(approvals, validForMs, NOW);
          expect(live).toEqual(approvals.filter((_, i) => ages[i]! < validForMs));
          expect(oldestLiveApproval(approvals, validForMs, NOW)).toBe(Math.min(NOW, ...live.map((a) => Date.parse(a.at))));
        },
      ),
    );
  });

  it('keeps every approval when approvals do not lapse', () => {
    const approvals = [{ approver: 'ann', at: at(NOW - 86_400_000) }];
    expect(liveApprovals(approvals, undefined, NOW)).toEqual(approvals);
    expect(oldestLiveApproval(approvals, undefined, NOW)).toBe(NOW - 86_400_000);
  });
});
