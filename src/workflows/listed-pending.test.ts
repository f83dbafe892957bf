import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { listedApproval } from './listed-approval.js';
import { listedWithin, SHORTENED_BYTES } from './listed-pending.js';

/** A call as large as a run lets it be: listed arguments, approvers' text and a precheck's world near their limits. */
const call = (i: number, sizes = { args: 6_000, description: 4_000, world: 8_000 }): PendingApproval => ({
  id: `agent-${i}/call-${i}`,
  toolName: 'write_file',
  args: { path: `f${i}.md`, content: 'x'.repeat(sizes.args) },
  argsHash: `sha256:${i}`,
  description: `Write f${i}.md ${'d'.repeat(sizes.description)}`,
  allowedDecisions: ['approve', 'edit', 'reject'],
  requestedAt: '2026-12-03T12:00:00.000Z',
  deadline: '2099-11-30T12:00:00.000Z',
  step: 1,
  onTimeout: 'reject',
  rule: 'tools.write_file: true',
  world: { balance: 'w'.repeat(sizes.world) },
});
const bytes = (value: unknown) => utf8Length(JSON.stringify(value));

describe('pending calls within an answer', () => {
  it('lists every call as lists always did while they fit', () => {
    const pending = [call(1), call(2, { args: 20_000, description: 10, world: 10 })];
    expect(listedWithin(pending, LIMITS.queryBytes)).toEqual({ listed: pending.map(listedApproval), more: false });
  });

  it('cuts every call shorter when 32 sub-agents with 32 calls each would not fit, and lists them all', () => {
    const pending = Array.from({ length: 1024 }, (_, i) => call(i, { args: 6_000, description: 4_000, world: 100 }));
    expect(bytes(pending.map(listedApproval))).toBeGreaterThan(8 * LIMITS.queryBytes);
    const { listed, more } = listedWithin(pending, 4 * LIMITS.queryBytes);
    expect(more).toBe(false);
    expect(listed.map((p) => p.id)).toEqual(pending.map((p) => p.id));
    expect(listed.every((p) => p.shortened && p.argsTruncated && utf8Length(p.description) <= SHORTENED_BYTES)).toBe(true);
    // What decides a call is untouched: its id, tool and the hash its arguments are bound by.
    expect(listed.map((p) => [p.toolName, p.argsHash])).toEqual(pending.map((p) => [p.toolName, p.argsHash]));
    expect(bytes(listed)).toBeLessThanOrEqual(4 * LIMITS.queryBytes);
  });

  it('keeps the first that fit, and says more wait, when even cut short they would not', () => {
    const pending = Array.from({ length: 1024 }, (_, i) => call(i));
    const { listed, more } = listedWithin(pending, LIMITS.queryBytes / 2);
    expect(more).toBe(true);
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.map((p) => p.id)).toEqual(pending.slice(0, listed.length).map((p) => p.id));
    expect(listed.every((p) => bytes(p.world) <= SHORTENED_BYTES + 32)).toBe(true);
    expect(bytes(listed)).toBeLessThanOrEqual(LIMITS.queryBytes / 2);
  });

  it('never answers past its budget, and lists a prefix of the calls in their order', () => {
    const sizes = fc.record({ args: fc.nat(9_000), description: fc.nat(5_000), world: fc.nat(9_000) });
    fc.assert(
      fc.property(fc.array(sizes, { maxLength: 80 }), fc.integer({ min: 2, max: 400_000 }), (all, budget) => {
        const pending = all.map((s, i) => call(i, s));
        const { listed, more } = listedWithin(pending, budget);
        expect(bytes(listed)).toBeLessThanOrEqual(Math.max(budget, 2));
        expect(listed.map((p) => p.id)).toEqual(pending.slice(0, listed.length).map((p) => p.id));
        expect(more).toBe(listed.length < pending.length);
      }),
      { numRuns: 60 },
    );
  });
});
