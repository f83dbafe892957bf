/** A run's own policy may tighten its agent's, never loosen it (unless the agent says `runOverrides: 'any'`). */
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy, type ApprovalPolicyOverride } from '../schemas/approval-policy.js';
import { reviewerMayApprove } from '../reviewers/reviewer-may-approve.js';
import { loosenings } from './tighten-only.js';

const refundWhen = { arg: 'amount', op: 'gt', value: 10000 } as const;
const agent = ApprovalPolicy.parse({
  tools: {
    read_data: false,
    write_file: true,
    execute_sql: { allowedDecisions: ['approve', 'reject'] },
    process_refund: { when: refundWhen, approvers: ['finance', 'cfo'], requiredApprovals: 2, validFor: '1h' },
    cancel_order: { review: { rule: 'amountLimits', options: { approveUpTo: 10 } } },
  },
  fourEyes: true,
});

describe('loosenings', () => {
  it.each<[string, ApprovalPolicyOverride]>([
    ['gate what the agent lets through', { tools: { read_data: true }, default: true }],
    [
      'gate every call where the agent gates some',
      { tools: { process_refund: { approvers: ['cfo'], requiredApprovals: 3, validFor: '10m' } } },
    ],
    [
      'widen `when` only by `any`',
      {
        tools: {
          process_refund: {
            when: { any: [refundWhen, { context: 'tier', op: 'eq', value: 'new' }] },
            approvers: ['finance'],
            requiredApprovals: 2,
            validFor: '1h',
          },
        },
      },
    ],
    ['narrow the decisions', { tools: { write_file: { allowedDecisions: ['reject'] } } }],
    ['drop a reviewer, or add one in shadow mode', { tools: { cancel_order: { review: { model: { instructions: 'x' }, shadow: true } } } }],
    [
      'change timeouts, reminders and descriptions',
      { tools: { write_file: { timeout: '1h', reminders: ['10m'], description: 'x' } }, timeout: '1d' },
    ],
    ['keep four eyes and onTimeout', { fourEyes: true, onTimeout: 'fail' }],
  ])('lets a run %s', (_, override) => {
    expect(loosenings(agent, override)).toEqual([]);
  });

  it('names everything that loosens', () => {
    expect(
      loosenings(agent, {
        fourEyes: false,
        tools: {
          write_file: false,
          execute_sql: { allowedDecisions: ['approve', 'edit'] },
          process_refund: { when: { arg: 'amount', op: 'gt', value: 50000 }, approvers: ['finance', 'bob'], onTimeout: 'approve' },
          cancel_order: { review: { rule: 'amountLimits', options: { approveUpTo: 1000 } } },
        },
      }),
    ).toEqual([
      'fourEyes: the agent requires another person to approve',
      'tools.write_file: the agent gates this tool; a run may not let its calls through',
      'tools.execute_sql.allowedDecisions: the agent does not allow edit',
      "tools.process_refund.when: it must gate at least what the agent's does (leave it out, repeat it, or list it in an `any`)",
      'tools.process_refund.approvers: the agent allows only finance, cfo, not bob',
      'tools.process_refund.requiredApprovals: the agent needs 2 approvals',
      "tools.process_refund.validFor: the agent's approvals hold at most 1h",
      'tools.process_refund.onTimeout: a run may not approve calls nobody decided',
      "tools.cancel_order.review: a reviewer may approve on its own; a run may keep the agent's, drop it, or add one in shadow mode or one that can only reject or escalate",
    ]);
  });

  it('takes a reviewer that cannot approve, as its rule declares, as no loosening when asked to; runs before patch set 29 do not ask', () => {
    const rejecting = { tools: { cancel_order: { review: { rule: 'amountLimits', options: { rejectAbove: 50000 } } } } };
    const approving = { tools: { cancel_order: { review: { rule: 'amountLimits', options: { approveUpTo: 1000 } } } } };
    expect(loosenings(agent, rejecting, { reviewerMayApprove })).toEqual([]);
    expect(loosenings(agent, approving, { reviewerMayApprove })).toEqual([
      "tools.cancel_order.review: a reviewer may approve on its own; a run may keep the agent's, drop it, or add one in shadow mode or one that can only reject or escalate",
    ]);
    // As runs before patch set 29 are judged (src/workflows/run-policy.ts passes no judge): every new reviewer may approve.
    expect(loosenings(agent, rejecting)).toEqual(loosenings(agent, approving));
    expect(loosenings(agent, rejecting)).toHaveLength(1);
  });

  it('judges a tool the agent does not list against its default', () => {
    expect(loosenings(ApprovalPolicy.parse({ default: { approvers: ['ops'] } }), { tools: { send_email: true } })).toEqual([
      'tools.send_email.approvers: the agent allows only ops, not anyone',
    ]);
    expect(loosenings(agent, { onTimeout: 'approve' })).toEqual(['onTimeout: a run may not approve calls nobody decided']);
  });

  it('keeps escalation within the agent’s approvers', () => {
    expect(
      loosenings(agent, {
        tools: { process_refund: { ...(agent.tools.process_refund as object), escalate: [{ after: '1h', approvers: ['interns'] }] } },
      }),
    ).toEqual(['tools.process_refund.escalate: the agent allows only finance, cfo, not interns']);
  });
});

describe('loosenings through patterns', () => {
  const byPattern = ApprovalPolicy.parse({ tools: { 'fs__write_*': { approvers: ['ops'] }, 'fs__*': true } });

  it('judges an exact name against the agent pattern that speaks for it', () => {
    // Merged, the run's exact key outranks the agent's pattern: `false` would let every write through.
    expect(loosenings(byPattern, { tools: { fs__write_file: false } })).toEqual([
      'tools.fs__write_file: the agent gates this tool; a run may not let its calls through',
    ]);
    expect(loosenings(byPattern, { tools: { fs__write_file: { approvers: ['interns'] } } })).toEqual([
      'tools.fs__write_file.approvers: the agent allows only ops, not interns',
    ]);
    expect(loosenings(byPattern, { tools: { fs__write_file: { approvers: ['ops'], requiredApprovals: 2 } } })).toEqual([]);
  });

  it('judges a pattern against the agent patterns it would outrank', () => {
    expect(loosenings(byPattern, { tools: { 'fs__write_f*': { approvers: ['interns'] } } })).toEqual([
      'tools.fs__write_f*.approvers: the agent allows only ops, not interns',
    ]);
    // Less specific than `fs__write_*`, which keeps speaking for writes: only `fs__*`'s `true` is replaced.
    expect(loosenings(byPattern, { tools: { 'fs*': { allowedDecisions: ['approve', 'reject'] } } })).toEqual([]);
  });

  it('keeps MCP tools the agent leaves to their annotations gated when destructive', () => {
    const byHints = ApprovalPolicy.parse({ tools: { read_data: false } });
    const refused = 'the agent gates MCP tools annotated destructiveHint that it does not list; a run may not let them through';
    expect(loosenings(byHints, { tools: { fs__delete_file: false } })).toEqual([`tools.fs__delete_file: ${refused}`]);
    expect(loosenings(byHints, { tools: { '*': false } })).toEqual([`tools.*: ${refused}`]);
    expect(loosenings(byHints, { tools: { read_data: false, fs__delete_file: { approvers: ['ops'] } } })).toEqual([]);
  });

  it('lets a run narrow a bare approver entry to one kind, and never widen a typed one', () => {
    // process_refund: approvers finance, cfo.
    const narrowed = { tools: { process_refund: { approvers: ['group:finance', 'user:cfo'], requiredApprovals: 2, validFor: '1h' } } };
    expect(loosenings(agent, narrowed)).toEqual([]);
    const escalated = {
      tools: {
        process_refund: {
          approvers: ['cfo'],
          requiredApprovals: 2,
          validFor: '1h',
          escalate: [{ after: '1h', approvers: ['group:finance'] }],
        },
      },
    };
    expect(loosenings(agent, escalated)).toEqual([]);
    const typedAgent = ApprovalPolicy.parse({ tools: { send_email: { approvers: ['group:ops'] } } });
    expect(loosenings(typedAgent, { tools: { send_email: { approvers: ['ops'] } } })).toEqual([
      'tools.send_email.approvers: the agent allows only group:ops, not ops',
    ]);
    expect(loosenings(typedAgent, { tools: { send_email: { approvers: ['user:ops'] } } })).toEqual([
      'tools.send_email.approvers: the agent allows only group:ops, not user:ops',
    ]);
    // Runs before patch set 13 read `group:finance` as a name of its own, outside the agent's.
    expect(loosenings(agent, narrowed, { typedApprovers: false })).toEqual([
      'tools.process_refund.approvers: the agent allows only finance, cfo, not group:finance, user:cfo',
    ]);
  });

  it('judges as before for runs that started before (the workflow asks patched())', () => {
    expect(loosenings(byPattern, { tools: { fs__write_file: false } }, { throughPatterns: false })).toEqual([]);
  });
});
