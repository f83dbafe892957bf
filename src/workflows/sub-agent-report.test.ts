import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../schemas/audit-entry.js';
import { answersIn, ChildApprovals } from './sub-agent-report.js';

let seq = 0;
const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  seq: ++seq,
  at: '2026-12-01T00:00:00.000Z',
  via: 'signal',
  outcome: 'applied',
  id: 'call-1',
  ...over,
});

describe("a sub-agent's answers to its parent", () => {
  it('says taken for what it applied or its own sub-agent took, refused with why, and nothing for what it only passed on', () => {
    const answers = answersIn([
      entry({ approver: 'pat' }),
      entry({ id: 'call-2', approver: 'ann', outcome: 'refused', refusal: { code: 'already_decided', message: 'no' } }),
      entry({ id: 'call-3/call-1', approver: 'bo', outcome: 'forwarded' }),
      entry({ id: 'call-4/call-1', approver: 'bo', outcome: 'noted', event: 'forward_taken' }),
      entry({ id: 'call-5/call-1', outcome: 'noted', event: 'forward_lost', message: 'gone' }),
      entry({ id: undefined, outcome: 'refused', refusal: { code: 'malformed', message: 'x' } }),
    ]);
    expect(answers).toEqual([
      { id: 'call-1', approver: 'pat' },
      { id: 'call-2', approver: 'ann', refusal: { code: 'already_decided', message: 'no' } },
      { id: 'call-4/call-1', approver: 'bo' },
      { id: 'call-5/call-1', refusal: { code: 'run_closed', message: 'gone' } },
    ]);
  });

  it('stays within what a parent takes, however much refused input came in: the newest answer per call and approver', () => {
    const flood = Array.from({ length: 5000 }, (_, i) =>
      entry({ id: `junk-${i}`, approver: 'mallory', outcome: 'refused', refusal: { code: 'unknown_call', message: 'x'.repeat(4000) } }),
    );
    const twice = [entry({ approver: 'pat', outcome: 'refused', refusal: { code: 'busy', message: 'first' } }), entry({ approver: 'pat' })];
    const answers = answersIn([...flood, ...twice]);
    expect(answers).toHaveLength(200);
    expect(answers.at(-1)).toEqual({ id: 'call-1', approver: 'pat' });
    expect(answers.every((a) => (a.refusal?.message.length ?? 0) <= 1000)).toBe(true);
    const report = { workflowId: 'p/call-1', seq: 1, pending: [], tools: [], answered: [], answers };
    expect(ChildApprovals.safeParse(report).success).toBe(true);
    expect(JSON.stringify(report).length).toBeLessThan(300_000);
  });
});
