/**
 * A gate no one can ever satisfy: more approvals than there are people who may give them. Countable only when every
 * approver entry of the gate, its escalation tiers included, names a person (`user:<id>`); a group or a bare name
 * may hold anyone. Under four eyes the run's requester does not count. Such a call could only time out, so the
 * policy is refused where it is defined or given (define-agent.ts, check-run-start.ts). Not a gate whose calls may
 * run without people: its deadline approves (`onTimeout: 'approve'`), or a reviewer may approve first. Pure.
 */
import { approverEntry } from './may-decide.js';
import type { ApprovalPolicy, ToolPolicy } from '../schemas/approval-policy.js';

export interface PolicyProblem {
  path: (string | number)[];
  message: string;
}

/** Each gate of `policy` that needs more distinct approvals than its named people can give. */
export function unreachableApprovals(
  policy: Pick<ApprovalPolicy, 'tools' | 'default' | 'fourEyes' | 'onTimeout'>,
  requestedBy?: string,
): PolicyProblem[] {
  const gates: [(string | number)[], ToolPolicy][] = [
    ...Object.entries(policy.tools).map(([tool, gate]): [(string | number)[], ToolPolicy] => [['tools', tool], gate]),
    [['default'], policy.default],
  ];
  return gates.flatMap(([path, gate]) => {
    if (typeof gate !== 'object' || !gate.approvers) return [];
    if ((gate.review && !gate.review.shadow) || (gate.onTimeout ?? policy.onTimeout) === 'approve') return [];
    const entries = [...gate.approvers, ...(gate.escalate ?? []).flatMap((tier) => tier.approvers)].map(approverEntry);
    if (entries.some((e) => e.kind !== 'user')) return [];
    const excluded = policy.fourEyes && requestedBy !== undefined ? requestedBy : undefined;
    const people = new Set(entries.map((e) => e.name).filter((name) => name !== excluded));
    const needed = gate.requiredApprovals ?? 1;
    if (people.size >= needed) return [];
    const who = people.size === 0 ? 'no one' : `only ${[...people].map((p) => `user:${p}`).join(', ')}`;
    const without =
      excluded !== undefined && entries.some((e) => e.name === excluded) ? ` (${excluded}, the requester, may not under four eyes)` : '';
    return [
      {
        path,
        message: `needs ${needed} approval${needed > 1 ? 's' : ''}, but ${who} may give ${needed > 1 ? 'them' : 'it'}${without}: no call of it could ever run`,
      },
    ];
  });
}
