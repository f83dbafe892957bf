import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { statusIn } from './approval-status.js';

const AT = '2026-11-30T12:00:00.000Z';
let seq = 0;
const entry = (e: Partial<AuditEntry>): AuditEntry => ({ seq: ++seq, at: AT, via: 'update', outcome: 'applied', ...e }) as AuditEntry;
const waiting = (id: string) => ({ id }) as PendingApproval;
const state = (pending: PendingApproval[], decisions: AuditEntry[]) => ({ pending, decisions, status: 'Running' as const });

describe('statusIn: what became of an approval', () => {
  it('waiting, decided, timed out', () => {
    expect(statusIn(state([waiting('call-1')], []), 'wf', 'call-1')).toEqual({ workflowId: 'wf', callId: 'call-1', status: 'waiting' });
    const approved = entry({ id: 'call-1', type: 'approve', approver: 'ann' });
    expect(statusIn(state([], [approved]), 'wf', 'call-1')).toMatchObject({ status: 'decided', decision: approved });
    const timedOut = entry({ id: 'call-2', via: 'timeout', type: 'timeout' });
    expect(statusIn(state([], [timedOut]), 'wf', 'call-2')).toMatchObject({ status: 'timed_out', decision: timedOut });
  });

  it('waits again under the id it was announced as; a refusal changes nothing', () => {
    const decisions = [
      entry({ id: 'call-1', outcome: 'refused', refusal: { code: 'four_eyes', message: 'no' } }),
      entry({ id: 'call-1', type: 'approve', approver: 'ann' }),
      entry({ id: 'call-1', via: 'run', outcome: 'noted', event: 'world_changed', proposedAs: 'call-1.2' }),
    ];
    expect(statusIn(state([waiting('call-1.2')], decisions), 'wf', 'call-1')).toEqual({
      workflowId: 'wf',
      callId: 'call-1',
      status: 'waits_again',
      waitsAs: 'call-1.2',
    });
  });

  it('unsettled when its run ended with only part of a quorum; unknown when the run shows nothing of it', () => {
    const partial = entry({ id: 'call-3', type: 'approve', approver: 'ann', quorum: { approvals: 1, required: 2 } });
    expect(statusIn(state([], [partial]), 'wf', 'call-3')).toMatchObject({ status: 'unsettled' });
    expect(statusIn(state([], [entry({ id: 'call-4', outcome: 'refused' })]), 'wf', 'call-4')).toBeUndefined();
    expect(statusIn(state([], []), 'wf', 'call-9')).toBeUndefined();
  });

  it('follows a call announced again to what became of its last announcement', () => {
    const proposed = entry({ id: 'call-1', type: 'edit', approver: 'bob', proposedAs: 'call-1.2' });
    const rejected = entry({ id: 'call-1.2', type: 'reject', approver: 'ann' });
    expect(statusIn(state([], [proposed, rejected]), 'wf', 'call-1')).toEqual({
      workflowId: 'wf',
      callId: 'call-1',
      status: 'decided',
      decision: rejected,
    });
    const again = entry({ id: 'call-1.2', via: 'run', outcome: 'noted', event: 'consent_expired', proposedAs: 'call-1.3' });
    expect(statusIn(state([waiting('call-1.3')], [proposed, again]), 'wf', 'call-1')).toMatchObject({
      status: 'waits_again',
      waitsAs: 'call-1.3',
    });
  });

  it('takes no made-up later announcement of a waiting call for an earlier one', () => {
    expect(statusIn(state([waiting('call-1')], []), 'wf', 'call-1.7')).toBeUndefined();
    expect(statusIn(state([waiting('call-1.2')], []), 'wf', 'call-1.3')).toBeUndefined();
    // An earlier announcement the audit log no longer holds still finds the one that waits.
    expect(statusIn(state([waiting('call-1.3')], []), 'wf', 'call-1.2')).toMatchObject({ status: 'waits_again', waitsAs: 'call-1.3' });
  });

  it('unsettled when its run ended while it waited, with no decision at all', () => {
    const policyOutcomes = [
      { id: 'call-1', toolName: 'cancel_order', step: 1, gated: true, rule: 'tools.cancel_order' },
      { id: 'call-2', toolName: 'read_data', step: 1, gated: false, rule: 'default' },
    ];
    const ended = { pending: [], decisions: [], status: 'Terminated' as const, policyOutcomes };
    expect(statusIn(ended, 'wf', 'call-1')).toMatchObject({ status: 'unsettled' });
    expect(statusIn(ended, 'wf', 'call-1.2')).toMatchObject({ status: 'unsettled' });
    expect(statusIn(ended, 'wf', 'call-2')).toBeUndefined();
    expect(statusIn({ ...ended, status: 'Running' }, 'wf', 'call-1')).toBeUndefined();
  });
});
