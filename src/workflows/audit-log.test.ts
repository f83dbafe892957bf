import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import { AuditLog } from './audit-log.js';

type Outcome = 'applied' | 'refused' | 'noted';
const logOf = (entries: { outcome: Outcome; size: number }[]) => {
  const log = new AuditLog();
  for (const { outcome, size } of entries) log.append({ via: 'signal', outcome, id: 'x'.repeat(size) });
  return log;
};
const bytesOf = (entries: readonly object[]) => entries.reduce((n, e) => n + utf8Length(JSON.stringify(e)), 0);

describe('what the audit log carries across continue-as-new', () => {
  it('keeps an applied decision past a flood of refusals when deciding first, and lost it before', () => {
    const log = logOf([
      { outcome: 'applied', size: 10 },
      ...Array.from({ length: 60 }, () => ({ outcome: 'refused' as const, size: 3000 })),
    ]);
    const decided = log.carry(true);
    expect(decided.audit[0]).toMatchObject({ seq: 1, outcome: 'applied' });
    expect(decided.audit.slice(1).every((e) => e.outcome === 'refused' && e.seq > 1)).toBe(true);
    expect(log.carry(false).audit.some((e) => e.outcome === 'applied')).toBe(false);
  });

  it('stays within its budget, in order, and leaves the next entry its right number', () => {
    const entry = fc.record({
      outcome: fc.constantFrom<Outcome>('applied', 'refused', 'noted'),
      size: fc.integer({ min: 0, max: 20_000 }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), fc.boolean(), (entries, decidedFirst) => {
        const log = logOf(entries);
        const { audit, auditDropped } = log.carry(decidedFirst);
        expect(bytesOf(audit)).toBeLessThanOrEqual(LIMITS.carriedAuditBytes);
        expect(audit.map((e) => e.seq)).toEqual([...audit.map((e) => e.seq)].sort((a, b) => a - b));
        expect(new AuditLog(audit, auditDropped).lastSeq).toBe(log.lastSeq);
        // Deciding first, a refusal is carried only when every decided entry that fits on its own is too.
        if (decidedFirst && audit.some((e) => e.outcome === 'refused')) {
          const decided = log.entries.filter((e) => e.outcome !== 'refused');
          const carried = new Set(audit.map((e) => e.seq));
          const left = decided.filter((e) => !carried.has(e.seq));
          const room = LIMITS.carriedAuditBytes - bytesOf(audit.filter((e) => e.outcome !== 'refused'));
          expect(left.every((e) => utf8Length(JSON.stringify(e)) > room)).toBe(true);
        }
      }),
    );
  });
});
