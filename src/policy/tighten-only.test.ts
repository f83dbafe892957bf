/** A run's own policy may tighten its agent's, never loosen it (unless the agent says `runOverrides: 'any'`). */
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy, type ApprovalPolicyOverride } from '../schemas/approval-policy.js';
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
      "tools.cancel_order.review: a reviewer may approve on its own; a run may keep the agent's, drop it, or add one in shadow mode",
    ]);
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
