/**
 * A run may set its own approval policy at start, within limits its agent sets: by default (`runOverrides:
 * 'tighten'`) it may only tighten the agent's. This says what a run's policy would loosen, in words, so the run
 * can refuse it. Loosening means letting a call run with less human consent than the agent's policy gives it:
 * gating fewer calls, allowing more decisions, more or other approvers, fewer approvals, a reviewer that could
 * approve on its own, an approval that holds longer, approving on timeout, or dropping four eyes. Timeouts,
 * reminders and descriptions change no consent and are free. Pure.
 */
import deepEqual from 'fast-deep-equal';
import type { ApprovalPolicy, ApprovalPolicyOverride, ToolGateConfig, ToolPolicy } from '../schemas/approval-policy.js';
import type { Condition } from '../schemas/condition.js';
import { DECISION_TYPES } from '../schemas/decision.js';
import { durationToMs } from '../schemas/duration.js';

/** Every way `override` would loosen `agent`; empty when it only tightens. */
export function loosenings(agent: ApprovalPolicy, override: ApprovalPolicyOverride): string[] {
  const problems: string[] = [];
  const onTimeout = override.onTimeout ?? agent.onTimeout;
  if (onTimeout === 'approve' && agent.onTimeout !== 'approve') problems.push('onTimeout: a run may not approve calls nobody decided');
  if (agent.fourEyes && override.fourEyes === false) problems.push('fourEyes: the agent requires another person to approve');
  for (const [tool, entry] of Object.entries(override.tools ?? {})) {
    const base = Object.hasOwn(agent.tools, tool) ? agent.tools[tool]! : agent.default;
    problems.push(...entryLoosenings(`tools.${tool}`, base, entry, agent.onTimeout, onTimeout));
  }
  if (override.default !== undefined)
    problems.push(...entryLoosenings('default', agent.default, override.default, agent.onTimeout, onTimeout));
  return problems;
}

function entryLoosenings(path: string, base: ToolPolicy, entry: ToolPolicy, agentOnTimeout: string, runOnTimeout: string): string[] {
  if (base === false) return [];
  if (entry === false) return [`${path}: the agent gates this tool; a run may not let its calls through`];
  const a: ToolGateConfig = base === true ? {} : base;
  const r: ToolGateConfig = entry === true ? {} : entry;
  const problems: string[] = [];
  if (r.when && !covers(r.when, a.when)) {
    problems.push(
      a.when
        ? `${path}.when: it must gate at least what the agent's does (leave it out, repeat it, or list it in an \`any\`)`
        : `${path}.when: the agent gates every call of this tool`,
    );
  }
  const allowed = a.allowedDecisions ?? DECISION_TYPES;
  const added = (r.allowedDecisions ?? DECISION_TYPES).filter((d) => !allowed.includes(d));
  if (added.length) problems.push(`${path}.allowedDecisions: the agent does not allow ${added.join(', ')}`);
  if (a.approvers) {
    const outside = r.approvers ? r.approvers.filter((x) => !a.approvers!.includes(x)) : ['anyone'];
    if (outside.length) problems.push(`${path}.approvers: the agent allows only ${a.approvers.join(', ')}, not ${outside.join(', ')}`);
  }
  if ((r.requiredApprovals ?? 1) < (a.requiredApprovals ?? 1)) {
    problems.push(`${path}.requiredApprovals: the agent needs ${a.requiredApprovals} approvals`);
  }
  if (r.review && !r.review.shadow && !deepEqual(r.review, a.review)) {
    problems.push(`${path}.review: a reviewer may approve on its own; a run may keep the agent's, drop it, or add one in shadow mode`);
  }
  if (r.escalate && a.approvers && !deepEqual(r.escalate, a.escalate)) {
    const outside = r.escalate.flatMap((tier) => tier.approvers).filter((x) => !a.approvers!.includes(x));
    if (outside.length)
      problems.push(`${path}.escalate: the agent allows only ${a.approvers.join(', ')}, not ${[...new Set(outside)].join(', ')}`);
  }
  if (a.validFor && (!r.validFor || durationToMs(r.validFor) > durationToMs(a.validFor))) {
    problems.push(`${path}.validFor: the agent's approvals hold at most ${a.validFor}`);
  }
  if ((r.onTimeout ?? runOnTimeout) === 'approve' && (a.onTimeout ?? agentOnTimeout) !== 'approve') {
    problems.push(`${path}.onTimeout: a run may not approve calls nobody decided`);
  }
  return problems;
}

/** The run's condition gates whenever the agent's does: it is the same, or one of the alternatives of an `any`. */
function covers(run: Condition, agent: Condition | undefined): boolean {
  if (!agent) return false;
  return deepEqual(run, agent) || ('any' in run && run.any.some((c) => deepEqual(c, agent)));
}
