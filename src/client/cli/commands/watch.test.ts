import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../schemas/audit-entry.js';
import { describeEvent } from './watch.js';

const entry: AuditEntry = {
  seq: 1,
  at: '2026-12-01T00:00:00.000Z',
  via: 'update',
  outcome: 'applied',
  type: 'approve',
  id: 'call-1',
  toolName: 'write_file',
  approver: 'pat',
};

describe('hitl watch: the end', () => {
  it("says how a session ended, its reason's hidden characters shown", () => {
    const usage = { promptTokens: 1, completionTokens: 1 };
    const finished = { type: 'run_finished', status: 'Ended', output: 'bye', steps: 1, usage } as const;
    const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain(describeEvent({ ...finished, ended: { by: 'request', reason: 'by sam over HTTP: \u202edone' } }))).toBe(
      'Ended (end requested: by sam over HTTP: \\u202edone): bye',
    );
    expect(plain(describeEvent({ ...finished, ended: { by: 'request' } }))).toBe('Ended (end requested): bye');
    expect(plain(describeEvent({ ...finished, ended: { by: 'idle', reason: 'no message came for 7d' } }))).toBe(
      'Ended (no message came for 7d): bye',
    );
    expect(plain(describeEvent({ ...finished, status: 'Completed' }))).toBe('Completed: bye');
  });
});

describe('hitl watch: decisions', () => {
  it('says decided for a decision the run applied, and passed on for one it sent to the sub-agent that owns the call', () => {
    expect(describeEvent({ type: 'approval_decided', entry })).toBe('decided: approve write_file [call-1] by pat via update');
    const passed = { ...entry, id: 'call-2/call-1', outcome: 'forwarded' as const, forwardedTo: 'run-1/call-2' };
    expect(describeEvent({ type: 'approval_decided', entry: passed })).toBe(
      'passed on to run-1/call-2: approve write_file [call-2/call-1] by pat via update',
    );
  });
});
