/**
 * What an edit may become, by the decision rules of patch set 9: a proposal's deadline never approves it, and the
 * approvers an escalation reached may edit the call within its tool as they may approve it.
 */
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../schemas/approval-policy.js';
import { toolSpecs } from '../tools/registry.js';
import { pendingApproval as pending } from '../../test/helpers/pending-approval.js';
import { planDecisions, type PlanContext } from './decision-plan.js';

const ctx: PlanContext = {
  pending: [pending('a', 'write_file', { path: 'a', content: 'x' }, { checks: 4 })],
  decided: new Map(),
  available: ['write_file', 'process_refund', 'cancel_order'],
  specs: toolSpecs,
};

/**
 * A refund of 20,000 waiting with `approvers` listed and the escalation tier `reachedTier` reached, under a policy
 * where refunds need finance and escalate to managers after 4 hours (and `moreTools`).
 */
function escalatedRefund(approvers: string[], reachedTier: string, moreTools: Record<string, unknown> = {}): PlanContext {
  const ladder = [{ at: '2026-01-01T04:00:00.000Z', approvers: [reachedTier], reached: true }];
  return {
    ...ctx,
    pending: [pending('r', 'process_refund', { orderId: '1', amount: 20000 }, { checks: 4, approvers, escalations: ladder })],
    policy: ApprovalPolicy.parse({
      tools: { process_refund: { approvers: ['finance'], escalate: [{ after: '4h', approvers: ['managers'] }] }, ...moreTools },
    }),
  };
}

describe('planDecisions, for edits (patch set 9)', () => {
  it('never lets a proposal’s deadline approve it (patch set 9): its gate times out instead', () => {
    const v4: PlanContext = {
      ...ctx,
      policy: ApprovalPolicy.parse({ tools: { process_refund: { approvers: ['finance'], onTimeout: 'approve', timeout: '1h' } } }),
    };
    const intoRefund = {
      decisions: [{ id: 'a', type: 'edit', name: 'process_refund', args: { orderId: '1', amount: 5 } }],
      approver: 'bob',
    };
    const gateOf = (context: PlanContext) => {
      const plan = planDecisions(intoRefund, context);
      return plan.ok ? plan.decisions[0]!.proposal?.gate : plan.error.code;
    };
    expect(gateOf({ ...v4, deadlinesApproveNoProposal: true })).toMatchObject({ onTimeout: 'reject', timeoutMs: 3_600_000 });
    // Runs from before the change keep the tool's own onTimeout.
    expect(gateOf(v4)).toMatchObject({ onTimeout: 'approve' });
    // An edit its editor may approve is no proposal: it runs now, and no deadline is left to it.
    const direct = planDecisions({ ...intoRefund, groups: ['finance'] }, { ...v4, deadlinesApproveNoProposal: true });
    expect(direct.ok && direct.decisions[0]!.proposal).toBeUndefined();
  });

  it('lets approvers an escalation reached edit the call within its tool (patch set 9), not into another', () => {
    const escalated = escalatedRefund(['finance', 'managers'], 'managers', { cancel_order: { approvers: ['finance'] } });
    const mia = { approver: 'mia', groups: ['managers'] };
    const edit = { id: 'r', type: 'edit', args: { orderId: '1', amount: 15000 } };
    const code9 = (raw: unknown, context: PlanContext) => {
      const plan = planDecisions(raw, context);
      return plan.ok ? 'ok' : plan.error.code;
    };
    expect(code9({ decisions: [edit], ...mia }, { ...escalated, escalatedMayEdit: true })).toBe('ok');
    // Runs from before the change: managers may approve the refund, not edit it.
    expect(code9({ decisions: [edit], ...mia }, escalated)).toBe('approver_not_allowed');
    expect(code9({ decisions: [{ id: 'r', type: 'approve' }], ...mia }, escalated)).toBe('ok');
    // The reached tier is the refund's, not another tool's.
    const intoCancel = { id: 'r', type: 'edit', name: 'cancel_order', args: { orderId: '1' } };
    const plan = planDecisions({ decisions: [intoCancel], ...mia }, { ...escalated, escalatedMayEdit: true });
    expect(plan.ok && plan.decisions[0]!.proposal?.gate.approvers).toEqual(['finance']);
  });

  it('counts only tiers the edited call’s own ladder has: an approver the call got elsewhere may not edit it', () => {
    // A call that waits again under another tool's gate (consent.ts) can list that gate's approvers (support) and
    // reached tiers: neither makes support an approver of refunds.
    const context: PlanContext = { ...escalatedRefund(['support', 'support-leads'], 'support-leads'), escalatedMayEdit: true };
    const edit = { decisions: [{ id: 'r', type: 'edit', args: { orderId: '1', amount: 15000 } }] };
    for (const groups of [['support'], ['support-leads']]) {
      const plan = planDecisions({ ...edit, approver: 'sue', groups }, context);
      expect(!plan.ok && plan.error.code).toBe('approver_not_allowed');
    }
  });
});
