import { describe, expect, it } from 'vitest';
import { ApprovalPolicy, type ApprovalPolicyInput } from '../schemas/approval-policy.js';
import { gatesOf, unreachableApprovals, unreachableBreakpoints } from './reachable-approvals.js';

const check = (policy: ApprovalPolicyInput, requestedBy?: string) => unreachableApprovals(ApprovalPolicy.parse(policy), requestedBy);

describe('approvals no one can give', () => {
  it('finds a quorum larger than the people named, escalation tiers counted', () => {
    expect(check({ tools: { cancel_order: { approvers: ['user:bob'], requiredApprovals: 2 } } })).toEqual([
      { path: ['tools', 'cancel_order'], message: 'needs 2 approvals, but only user:bob may give them: no call it gates could ever run' },
    ]);
    const laddered = { approvers: ['user:bob'], requiredApprovals: 2, escalate: [{ after: '1h', approvers: ['user:ann'] }] };
    expect(check({ tools: { cancel_order: laddered } })).toEqual([]);
    expect(check({ default: { approvers: ['user:bob', 'user:bob'], requiredApprovals: 2 } })).toEqual([
      { path: ['default'], message: 'needs 2 approvals, but only user:bob may give them: no call it gates could ever run' },
    ]);
  });

  it('leaves out the requester under four eyes, and says so', () => {
    const policy = { tools: { cancel_order: { approvers: ['user:alice'] } }, fourEyes: true };
    expect(check(policy, 'alice')).toEqual([
      {
        path: ['tools', 'cancel_order'],
        message:
          'needs 1 approval, but no one may give it (alice, the requester, may not under four eyes): no call it gates could ever run',
      },
    ]);
    expect(check(policy, 'bob')).toEqual([]);
    expect(check({ ...policy, fourEyes: false }, 'alice')).toEqual([]);
  });

  it('cannot count a group or a bare name, so never refuses one', () => {
    expect(check({ tools: { cancel_order: { approvers: ['group:finance'], requiredApprovals: 20 } } })).toEqual([]);
    expect(check({ tools: { cancel_order: { approvers: ['user:bob', 'finance'], requiredApprovals: 5 } } })).toEqual([]);
    expect(check({ tools: { cancel_order: { requiredApprovals: 5 } } })).toEqual([]);
  });

  it('counts names that differ only in case as one person, as the planner does', () => {
    expect(check({ tools: { cancel_order: { approvers: ['user:bob', 'user:Bob'], requiredApprovals: 2 } } })).toEqual([
      {
        path: ['tools', 'cancel_order'],
        message: 'needs 2 approvals, but only user:Bob may give them: no call it gates could ever run',
      },
    ]);
    expect(check({ tools: { cancel_order: { approvers: ['user:bob', 'user:Ann'] } } }, 'BOB')).toEqual([]);
    expect(check({ tools: { cancel_order: { approvers: ['user:bob'] } }, fourEyes: true }, 'BOB')).toHaveLength(1);
  });

  it('leaves alone a gate whose calls may run without people: its deadline approves, or its reviewer may approve', () => {
    const quorum = { approvers: ['user:bob'], requiredApprovals: 2 };
    expect(check({ tools: { cancel_order: { ...quorum, onTimeout: 'approve' } } })).toEqual([]);
    expect(check({ tools: { cancel_order: quorum }, onTimeout: 'approve' })).toEqual([]);
    expect(check({ tools: { cancel_order: { ...quorum, review: { rule: 'amountLimits', options: { approveUpTo: 100 } } } } })).toEqual([]);
    expect(check({ tools: { cancel_order: { ...quorum, review: { model: { instructions: 'Review it.' } } } } })).toEqual([]);
    // One that can only reject or escalate leaves every call it lets pass to people, who are too few.
    expect(check({ tools: { cancel_order: { ...quorum, review: { rule: 'amountLimits', options: { rejectAbove: 5 } } } } })).toHaveLength(
      1,
    );
    expect(check({ tools: { cancel_order: { ...quorum, review: { rule: 'amountLimits' } } } })).toHaveLength(1);
    expect(check({ tools: { cancel_order: { ...quorum, review: { rule: 'amountLimits', shadow: true } } } })).toHaveLength(1);
    expect(check({ tools: { cancel_order: { ...quorum, onTimeout: 'reject' } }, onTimeout: 'approve' })).toHaveLength(1);
  });

  it('counts only escalation tiers due before the deadline', () => {
    const late = { approvers: ['user:bob'], requiredApprovals: 2, timeout: '1h', escalate: [{ after: '1h', approvers: ['user:ann'] }] };
    expect(check({ tools: { cancel_order: late } })).toHaveLength(1);
    expect(check({ tools: { cancel_order: { ...late, timeout: '2h' } } })).toEqual([]);
    expect(check({ tools: { cancel_order: { ...late, timeout: undefined } }, timeout: '30m' })).toHaveLength(1);
  });

  it('checks only the entries the agent’s tools fall under', () => {
    const stuck = { approvers: ['user:bob'], requiredApprovals: 2 };
    const policy = ApprovalPolicy.parse({ tools: { cancel_order: stuck, 'cancel_*': stuck, write_file: stuck }, default: stuck });
    const reached = (tools: string[]) => unreachableApprovals(policy, undefined, gatesOf(policy, tools)).map((p) => p.path.join('.'));
    expect(reached(['cancel_order'])).toEqual(['tools.cancel_order']);
    expect(reached(['cancel_all'])).toEqual(['tools.cancel_*']);
    expect(reached(['read_data', 'fs__*'])).toEqual(['default']);
    expect(reached(['fs__*'])).toEqual([]);
  });

  it('finds a breakpoint only the requester may let go on, under four eyes', () => {
    const policy = ApprovalPolicy.parse({ fourEyes: true });
    const mine = { beforeTools: { approvers: ['user:alice'] } };
    expect(unreachableBreakpoints(mine, policy, 'alice')).toEqual([
      {
        path: ['interrupt', 'beforeTools'],
        message: 'only alice, the requester, may let the run go on, and may not under four eyes: it could only be rejected',
      },
    ]);
    expect(unreachableBreakpoints(mine, policy, 'bob')).toEqual([]);
    expect(unreachableBreakpoints(mine, { ...policy, fourEyes: false }, 'alice')).toEqual([]);
    expect(unreachableBreakpoints({ beforeTools: { approvers: ['user:alice', 'group:ops'] } }, policy, 'alice')).toEqual([]);
    expect(unreachableBreakpoints({ beforeTools: { approvers: ['user:alice'], onTimeout: 'approve' } }, policy, 'alice')).toEqual([]);
  });
});
