/** Approver entries that name no one are found where policies are written, with where they are. */
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../schemas/approval-policy.js';
import { approverEntryProblem, approverEntryProblems, namingProblems } from './approver-entries.js';

describe('approver entries', () => {
  it('takes a name, or a name of one kind', () => {
    for (const entry of ['finance', 'group:finance', 'user:alice', 'Finance Team', 'user:ann@example.com']) {
      expect(approverEntryProblem(entry), entry).toBeUndefined();
    }
  });

  it('refuses what can never match: nothing after the kind, padding, a second kind, invisible characters', () => {
    for (const entry of ['user:', 'group:', 'group: finance', 'finance ', 'group:user:x', 'user:group:x', 'fin\u200Bance']) {
      expect(approverEntryProblem(entry), entry).toMatch(/^".*" names no one: after an optional user: or group:, a name is at most 200/);
    }
  });

  it('walks every gate: tools, the default, and escalation tiers', () => {
    const policy = ApprovalPolicy.parse({
      tools: {
        send_email: { approvers: ['ops', 'group: ops'] },
        process_refund: { approvers: ['finance'], escalate: [{ after: '1h', approvers: ['user:'] }] },
        read_data: false,
      },
      default: { approvers: ['finance '] },
    });
    expect(approverEntryProblems(policy).map((p) => p.path.join('.'))).toEqual([
      'tools.send_email.approvers.1',
      'tools.process_refund.escalate.0.approvers.0',
      'default.approvers.0',
    ]);
  });

  it("walks a run's start input: its requester, its own policy and its breakpoints", () => {
    const problems = namingProblems({
      requestedBy: 'alice ',
      approval: { tools: { send_email: { approvers: ['ops', 'user:'] } } },
      interrupt: { beforeTools: { approvers: ['group: ops'] }, afterModel: true, beforeModel: { approvers: ['ops'] } },
    });
    expect(problems.map((p) => p.path.join('.'))).toEqual([
      'requestedBy',
      'approval.tools.send_email.approvers.1',
      'interrupt.beforeTools.approvers.0',
    ]);
    expect(problems[0]!.message).toMatch(/^"alice " names no one: a name is at most 200 characters, with no white space around it/);
    expect(namingProblems({ requestedBy: 'alice', interrupt: { beforeTools: { approvers: ['group:ops', 'user:bo'] } } })).toEqual([]);
  });
});
