/** The planner reads approver entries by kind (`group:`, `user:`) under decision rules v5, as bare names before. */
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../schemas/approval-policy.js';
import { toolSpecs } from '../tools/registry.js';
import { pendingApproval as pending } from '../../test/helpers/pending-approval.js';
import { planDecisions, type PlanContext } from './decision-plan.js';

const ctx: PlanContext = {
  pending: [
    pending('a', 'write_file', { path: 'a', content: 'x' }),
    pending('b', 'process_refund', { orderId: '1', amount: 20000 }, { approvers: ['group:finance', 'user:cfo'] }),
  ],
  decided: new Map(),
  available: ['write_file', 'process_refund'],
  specs: toolSpecs,
};

describe('planDecisions, approvers by kind', () => {
  it('reads `group:` and `user:` approver entries as one kind only for calls announced under decision rules v5', () => {
    const typedCtx = (typed: boolean): PlanContext => ({
      ...ctx,
      pending: ctx.pending.map((p) => ({ ...p, checks: typed ? 5 : 4 })),
      policy: ApprovalPolicy.parse({ tools: { process_refund: { approvers: ['group:finance'] } } }),
    });
    const codeOf = (raw: unknown, typed: boolean) => {
      const plan = planDecisions(raw, typedCtx(typed));
      return plan.ok ? 'ok' : plan.error.code;
    };
    const approveB = { decisions: [{ id: 'b', type: 'approve' }] };
    // A person whose identity is the group's name, or who is in a group named as a person, is not let in.
    expect(codeOf({ ...approveB, approver: 'finance' }, true)).toBe('approver_not_allowed');
    expect(codeOf({ ...approveB, approver: 'dave', groups: ['cfo'] }, true)).toBe('approver_not_allowed');
    expect(codeOf({ ...approveB, approver: 'fay', groups: ['finance'] }, true)).toBe('ok');
    expect(codeOf({ ...approveB, approver: 'cfo' }, true)).toBe('ok');
    // An edit into the refund is judged by the refund's typed approvers too.
    const intoRefund = { decisions: [{ id: 'a', type: 'edit', args: { path: 'a', content: 'y' } }] };
    const asRefund = {
      ...intoRefund,
      decisions: [{ ...intoRefund.decisions[0], name: 'process_refund', args: { orderId: '1', amount: 5 } }],
    };
    expect(codeOf({ ...asRefund, approver: 'fay', groups: ['finance'] }, true)).toBe('ok');
    expect(planDecisions({ ...asRefund, approver: 'finance' }, typedCtx(true))).toMatchObject({ ok: true, decisions: [{ proposal: {} }] });
    // Calls announced before read every entry as a bare name, prefix included, as they did when they were recorded.
    expect(codeOf({ ...approveB, approver: 'fay', groups: ['finance'] }, false)).toBe('approver_not_allowed');
    expect(codeOf({ ...approveB, approver: 'group:finance' }, false)).toBe('ok');
  });

  it('refuses a decision that names someone with white space around the name, in runs since patch set 13', () => {
    const approveB = { decisions: [{ id: 'b', type: 'approve' }] };
    const v5: PlanContext = { ...ctx, pending: ctx.pending.map((p) => ({ ...p, checks: 5 })) };
    const padded = [
      { ...approveB, approver: 'fay ', groups: ['finance'] },
      { ...approveB, approver: 'fay', groups: ['finance', ' cfo'] },
      { decisions: [{ id: 'b', type: 'approve', approver: 'fay\u0000' }], groups: ['finance'] },
    ];
    for (const input of padded) {
      expect(planDecisions(input, { ...v5, refusesMalformedNames: true })).toMatchObject({
        ok: false,
        error: {
          code: 'malformed',
          message: expect.stringMatching(
            /^Malformed decision input: ".*" is not a name \(a name is at most 200 characters, with no white space around it/,
          ),
        },
      });
      // Before, such a name was taken as given: here it decided in the group finance's name.
      expect(planDecisions(input, v5).ok).toBe(true);
    }
    expect(planDecisions({ ...approveB, approver: 'Fay Smith', groups: ['finance'] }, { ...v5, refusesMalformedNames: true }).ok).toBe(
      true,
    );
  });

  it('refuses a name holding a hidden character the first rule missed, in runs since patch set 14', () => {
    const v5: PlanContext = { ...ctx, pending: ctx.pending.map((p) => ({ ...p, checks: 5 })), refusesMalformedNames: true };
    const tagged = { decisions: [{ id: 'b', type: 'approve' }], approver: 'fay', groups: ['finance\u{E0041}'] };
    expect(planDecisions(tagged, { ...v5, refusesHiddenNames: true })).toMatchObject({ ok: false, error: { code: 'malformed' } });
    // A run of patch set 13 took it, and replays so: the group is not finance, so fay may not decide.
    expect(planDecisions(tagged, v5)).toMatchObject({ ok: false, error: { code: 'approver_not_allowed' } });
  });
});
