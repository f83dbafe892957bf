/**
 * A gate no one can ever satisfy: more approvals than there are people who may give them. Countable only when every
 * approver entry of the gate, its escalation tiers included, names a person (`user:<id>`); a group or a bare name
 * may hold anyone. Under four eyes the run's requester does not count. Such a call could only time out, so the
 * policy is refused where it is defined or given (define-agent.ts, check-run-start.ts). Not a gate whose calls may
 * run without people: its deadline approves (`onTimeout: 'approve'`), or its reviewer may approve (one that can only
 * reject or escalate leaves its calls to people). Pure.
 */
import { BREAKPOINTS, type Interrupts } from '../schemas/agent-options.js';
import { durationToMs } from '../schemas/duration.js';
import { bestMatch, isPattern } from '../tools/tool-names.js';
import { reviewerMayApprove } from '../reviewers/reviewer-may-approve.js';
import { approverEntry, personKey } from './may-decide.js';
import type { ApprovalPolicy, ToolPolicy } from '../schemas/approval-policy.js';

export interface PolicyProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Each gate of `policy` that needs more distinct approvals than its named people can give.
 * @param reaches which entries a call can reach (the agent's tools): others are left alone, as no call waits on them
 */
export function unreachableApprovals(
  policy: Pick<ApprovalPolicy, 'tools' | 'default' | 'fourEyes' | 'onTimeout' | 'timeout'>,
  requestedBy?: string,
  reaches: (key: string) => boolean = () => true,
): PolicyProblem[] {
  const gated: [(string | number)[], ToolPolicy][] = [
    ...Object.entries(policy.tools)
      .filter(([tool]) => reaches(tool))
      .map(([tool, gate]): [(string | number)[], ToolPolicy] => [['tools', tool], gate]),
    ...(reaches('default') ? [[['default'], policy.default] as [(string | number)[], ToolPolicy]] : []),
  ];
  return gated.flatMap(([path, gate]) => {
    if (typeof gate !== 'object' || !gate.approvers) return [];
    // A reviewer that may approve lets calls through without people; one that can only reject or escalate does not.
    if ((gate.review && !gate.review.shadow && reviewerMayApprove(gate.review)) || (gate.onTimeout ?? policy.onTimeout) === 'approve')
      return [];
    // Tiers due after the deadline never come (announce.ts shows only those before it).
    const timeoutMs = durationToMs(gate.timeout ?? policy.timeout);
    const tiers = (gate.escalate ?? []).filter((tier) => durationToMs(tier.after) < timeoutMs);
    const entries = [...gate.approvers, ...tiers.flatMap((tier) => tier.approvers)].map(approverEntry);
    if (entries.some((e) => e.kind !== 'user')) return [];
    // People as the planner counts them (decision rules v7): `user:Bob` and `user:bob` are one.
    const excluded = policy.fourEyes && requestedBy !== undefined ? requestedBy : undefined;
    const isExcluded = (name: string) => excluded !== undefined && personKey(name) === personKey(excluded);
    const people = new Map(entries.filter((e) => !isExcluded(e.name)).map((e) => [personKey(e.name), e.name]));
    const needed = gate.requiredApprovals ?? 1;
    if (people.size >= needed) return [];
    const who = people.size === 0 ? 'no one' : `only ${[...people.values()].map((p) => `user:${p}`).join(', ')}`;
    const without = entries.some((e) => isExcluded(e.name)) ? ` (${excluded}, the requester, may not under four eyes)` : '';
    return [
      {
        path,
        message: `needs ${needed} approval${needed > 1 ? 's' : ''}, but ${who} may give ${needed > 1 ? 'them' : 'it'}${without}: no call it gates could ever run`,
      },
    ];
  });
}

/**
 * Which entries of `policy` the agent's tools fall under: each tool's best key, or `default` when no key names it.
 * A wildcard tool (an MCP server's `fs__*`) names no tool yet, so it reaches nothing here.
 */
export function gatesOf(policy: Pick<ApprovalPolicy, 'tools'>, tools: readonly string[]): (key: string) => boolean {
  const keys = Object.keys(policy.tools);
  const reached = new Set(tools.filter((tool) => !isPattern(tool)).map((tool) => bestMatch(keys, tool) ?? 'default'));
  return (key) => reached.has(key);
}

/**
 * Each breakpoint of the run that no one may let go on: its approvers are people, and under four eyes the requester
 * is the only one. It could only be rejected or wait out its deadline, unless its deadline lets the run go on.
 * @param interrupt the run's breakpoints as they apply (the run's own, else the agent's, per kind)
 */
export function unreachableBreakpoints(
  interrupt: Interrupts,
  policy: Pick<ApprovalPolicy, 'fourEyes' | 'onTimeout'>,
  requestedBy: string | undefined,
): PolicyProblem[] {
  if (!policy.fourEyes || requestedBy === undefined) return [];
  return BREAKPOINTS.flatMap((kind) => {
    const setting = interrupt[kind];
    if (typeof setting !== 'object' || !setting.approvers || (setting.onTimeout ?? policy.onTimeout) === 'approve') return [];
    const entries = setting.approvers.map(approverEntry);
    if (entries.some((e) => e.kind !== 'user' || personKey(e.name) !== personKey(requestedBy))) return [];
    const message = `only ${requestedBy}, the requester, may let the run go on, and may not under four eyes: it could only be rejected`;
    return [{ path: ['interrupt', kind], message }];
  });
}
