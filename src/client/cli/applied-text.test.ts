import { describe, expect, it } from 'vitest';
import type { AppliedDecision } from '../../schemas/decision.js';
import type { PendingApproval } from '../../schemas/pending-approval.js';
import { appliedLine } from './applied-text.js';

const refund: PendingApproval = {
  id: 'call-2',
  toolName: 'process_refund',
  args: { orderId: '1234', amount: 20000 },
  argsHash: 'sha256:x',
  description: 'Refund 20000 of order 1234.',
  allowedDecisions: ['approve', 'edit', 'reject'],
  requestedAt: '2026-11-27T12:00:00.000Z',
  deadline: '2099-11-30T12:00:00.000Z',
  step: 1,
  onTimeout: 'reject',
  rule: 'tools.process_refund.when: amount gt 10000',
};
const withWorld = { ...refund, world: { refundable: 75000 } };
const applied = (over: Partial<AppliedDecision> = {}): AppliedDecision => ({
  id: 'call-2',
  type: 'approve',
  toolName: 'process_refund',
  argsHash: 'sha256:x',
  approver: 'alice',
  ...over,
});
const plain = (text: string) => text.replace(/\u001b\[\d+m/g, '');
const CHECKED = ': it runs if what it depends on is still as shown; otherwise it waits again (`hitl pending`)';

describe('what the CLI says of an applied decision', () => {
  it('an approval or an edit of a call with a world: it runs only if that is still as shown', () => {
    expect(plain(appliedLine(applied(), withWorld))).toBe(`✓ approve process_refund (call-2) by alice${CHECKED}`);
    expect(plain(appliedLine(applied({ type: 'edit' }), withWorld))).toBe(`✓ edit process_refund (call-2) by alice${CHECKED}`);
  });

  it('an approval that must start in time says so, with the world or alone', () => {
    expect(plain(appliedLine(applied(), { ...withWorld, validFor: '10m' }))).toContain(
      ': it runs if what it depends on is still as shown and its tool starts within 10m; otherwise',
    );
    expect(plain(appliedLine(applied(), { ...refund, validFor: '10m' }))).toContain(': it runs if its tool starts within 10m; otherwise');
  });

  it('says nothing of it for what does not run the call now: a reject, a proposal, a quorum not yet met, no world', () => {
    expect(plain(appliedLine(applied({ type: 'reject' }), withWorld))).toBe('✓ reject process_refund (call-2) by alice');
    expect(plain(appliedLine(applied({ type: 'edit', proposedAs: 'call-2.2' }), withWorld))).toBe(
      "✓ edit process_refund (call-2) by alice: now waits for that tool's approvers as call call-2.2",
    );
    expect(plain(appliedLine(applied({ quorum: { approvals: 1, required: 2 } }), withWorld))).toBe(
      '✓ approve process_refund (call-2) by alice: 1 of 2 approvals, it waits for the rest',
    );
    expect(plain(appliedLine(applied({ quorum: { approvals: 2, required: 2 } }), withWorld))).toBe(
      `✓ approve process_refund (call-2) by alice${CHECKED}`,
    );
    expect(plain(appliedLine(applied(), refund))).toBe('✓ approve process_refund (call-2) by alice');
    expect(plain(appliedLine(applied(), undefined))).toBe('✓ approve process_refund (call-2) by alice');
  });
});
