import { describe, expect, it } from 'vitest';
import { utf8Length } from '../bounds/truncate.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { REPORT_PENDING_BYTES, reportedPending } from './report-size.js';

const call = (i: number, contentBytes: number): PendingApproval => ({
  id: `call-${i}`,
  toolName: 'write_file',
  args: { path: `f${i}.md`, content: 'x'.repeat(contentBytes) },
  argsHash: `sha256:${i}`,
  description: `Write f${i}.md`,
  allowedDecisions: ['approve', 'edit', 'reject'],
  requestedAt: '2026-11-27T12:00:00.000Z',
  deadline: '2099-11-30T12:00:00.000Z',
  step: 1,
  onTimeout: 'reject',
  rule: 'tools.write_file: true',
});

describe('what a sub-agent reports to its parent', () => {
  it('carries every call whole while they fit', () => {
    const pending = [call(1, 1000), call(2, 60_000)];
    expect(reportedPending(pending)).toEqual(pending);
  });

  it('cuts their arguments as lists do once they would pass 1 MiB, and every call still goes', () => {
    const pending = Array.from({ length: 32 }, (_, i) => call(i, 60_000));
    const reported = reportedPending(pending);
    expect(reported.map((p) => p.id)).toEqual(pending.map((p) => p.id));
    expect(reported.every((p) => p.argsTruncated === true && p.argsHash === pending[reported.indexOf(p)]!.argsHash)).toBe(true);
    expect(utf8Length(JSON.stringify(reported))).toBeLessThanOrEqual(REPORT_PENDING_BYTES);
  });

  it('keeps the first that fit, cut, when even cut they would not', () => {
    const pending = Array.from({ length: 1024 }, (_, i) => call(i, 60_000));
    const reported = reportedPending(pending);
    expect(reported.length).toBeGreaterThan(32);
    expect(reported.length).toBeLessThan(1024);
    expect(reported.map((p) => p.id)).toEqual(pending.slice(0, reported.length).map((p) => p.id));
    expect(utf8Length(JSON.stringify(reported))).toBeLessThanOrEqual(REPORT_PENDING_BYTES);
  });
});
