/**
 * A run may set its own approval policy at start, within limits its agent sets: by default (`runOverrides:
 * 'tighten'`) it may only tighten the agent's. This says what a run's policy would loosen, in words, so the run
 * can refuse it. Loosening means letting a call run with less human consent than the agent's policy gives it:
 * gating fewer calls, allowing more decisions, more or other approvers, fewer approvals, a reviewer that could
 * approve on its own, an approval that holds longer, approving on timeout, or dropping four eyes. Timeouts,
 * reminders and descriptions change no consent and are free. Pure.
 */
import deepEqual from 'fast-deep-equal';
import { InvalidRunInputError } from '../errors.js';
import { approverWithin } from './may-decide.js';
import type { ApprovalPolicy, ApprovalPolicyOverride, ToolGateConfig, ToolPolicy } from '../schemas/approval-policy.js';
import type { Condition } from '../schemas/condition.js';
import { DECISION_TYPES } from '../schemas/decision.js';
import type { ReviewConfig } from '../schemas/review.js';
import { durationToMs } from '../schemas/duration.js';
import { bestMatch, isPattern, MCP_SEPARATOR, specificity } from '../tools/tool-names.js';

/** The error a run whose policy loosens its agent's fails with (InvalidRunInputError), naming each loosening. */
export function looseningRefusal(agentName: string, problems: string[]): InvalidRunInputError {
  return new InvalidRunInputError(
    `approval may only tighten agent "${agentName}"'s policy (its runOverrides is 'tighten'):\n- ${problems.join('\n- ')}`,
  );
}

/**
 * Every way `override` would loosen `agent`; empty when it only tightens.
 * @param options.throughPatterns judge each key against the agent entries it would stand in for once merged (see
 *   agentEntriesFor); off, only against the entry under the same key, as runs started before it were. @default true
 * @param options.typedApprovers a run may narrow a bare approver entry to one kind (`group:finance` under `finance`),
 *   as runs since patch set 13 read entries (may-decide.ts). @default true
 * @param options.reviewerMayApprove whether a reviewer the run adds (not in shadow mode) may approve on its own: one
 *   that may not (a rule whose options can only reject or escalate, as the rule declares: src/reviewers/rules.ts)
 *   takes no consent away. Runs before patch set 29 pass none (run-policy.ts) and judge every such reviewer as one
 *   that may. @default every reviewer may
 */
export function loosenings(
  agent: ApprovalPolicy,
  override: ApprovalPolicyOverride,
  options: { throughPatterns?: boolean; typedApprovers?: boolean; reviewerMayApprove?: (review: ReviewConfig) => boolean } = {},
): string[] {
  const { throughPatterns = true, typedApprovers = true, reviewerMayApprove = () => true } = options;
  const judge = { typedApprovers, reviewerMayApprove };
  const problems: string[] = [];
  const onTimeout = override.onTimeout ?? agent.onTimeout;
  if (onTimeout === 'approve' && agent.onTimeout !== 'approve') problems.push('onTimeout: a run may not approve calls nobody decided');
  if (agent.fourEyes && override.fourEyes === false) problems.push('fourEyes: the agent requires another person to approve');
  for (const [key, entry] of Object.entries(override.tools ?? {})) {
    if (!throughPatterns) {
      const base = Object.hasOwn(agent.tools, key) ? agent.tools[key]! : agent.default;
      problems.push(...entryLoosenings(`tools.${key}`, base, entry, agent.onTimeout, onTimeout, judge));
      continue;
    }
    if (entry === false && mayUngateByHints(agent, key)) {
      problems.push(
        `tools.${key}: the agent gates MCP tools annotated destructiveHint that it does not list; a run may not let them through`,
      );
    }
    for (const base of agentEntriesFor(agent, key)) {
      problems.push(...entryLoosenings(`tools.${key}`, base, entry, agent.onTimeout, onTimeout, judge));
    }
  }
  if (override.default !== undefined)
    problems.push(...entryLoosenings('default', agent.default, override.default, agent.onTimeout, onTimeout, judge));
  return [...new Set(problems)];
}

/**
 * The agent's entries a run's key would stand in for once merged. An exact name speaks for its tool wherever the
 * agent's entry for it came from: its own key, a pattern (`fs__write_*`) or the default. A pattern loses to every
 * exact name and to more specific patterns, so it may stand in for the default and any agent pattern no more
 * specific than itself.
 */
function agentEntriesFor(agent: ApprovalPolicy, key: string): ToolPolicy[] {
  const keys = Object.keys(agent.tools);
  if (!isPattern(key)) {
    const own = bestMatch(keys, key);
    return [own === undefined ? agent.default : agent.tools[own]!];
  }
  const score = specificity(key);
  return [agent.default, ...keys.filter((k) => isPattern(k) && specificity(k) <= score).map((k) => agent.tools[k]!)];
}

/**
 * An MCP tool no entry speaks for waits when annotated `destructiveHint`: a run's `false` for it, or a pattern's
 * (which may match such tools), would let those calls through.
 */
function mayUngateByHints(agent: ApprovalPolicy, key: string): boolean {
  if (isPattern(key)) return true;
  return key.includes(MCP_SEPARATOR) && bestMatch(Object.keys(agent.tools), key) === undefined;
}

function entryLoosenings(
  path: string,
  base: ToolPolicy,
  entry: ToolPolicy,
  agentOnTimeout: string,
  runOnTimeout: string,
  { typedApprovers, reviewerMayApprove }: { typedApprovers: boolean; reviewerMayApprove: (review: ReviewConfig) => boolean },
): string[] {
  const outsideOf = (agentEntries: readonly string[], entries: readonly string[]) =>
    entries.filter((x) => !approverWithin(x, agentEntries, typedApprovers));
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
  problems.push(...approversLoosenings(path, a.approvers, r.approvers, typedApprovers));
  if ((r.requiredApprovals ?? 1) < (a.requiredApprovals ?? 1)) {
    problems.push(`${path}.requiredApprovals: the agent needs ${a.requiredApprovals} approvals`);
  }
  if (r.review && !r.review.shadow && !deepEqual(r.review, a.review) && reviewerMayApprove(r.review)) {
    problems.push(
      `${path}.review: a reviewer may approve on its own; a run may keep the agent's, drop it, or add one in shadow mode or one that can only reject or escalate`,
    );
  }
  if (r.escalate && a.approvers && !deepEqual(r.escalate, a.escalate)) {
    const outside = outsideOf(
      a.approvers,
      r.escalate.flatMap((tier) => tier.approvers),
    );
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

/**
 * Where the agent names approvers, the run's must each be one of them (or narrow one to a kind); naming none lets
 * anyone decide. A gate's approvers and a breakpoint's are held to the same rule (tighten-breakpoints.ts).
 */
export function approversLoosenings(
  path: string,
  agent: readonly string[] | undefined,
  run: readonly string[] | undefined,
  typedApprovers: boolean,
): string[] {
  if (!agent) return [];
  const outside = run ? run.filter((x) => !approverWithin(x, agent, typedApprovers)) : ['anyone'];
  return outside.length ? [`${path}.approvers: the agent allows only ${agent.join(', ')}, not ${outside.join(', ')}`] : [];
}

/** The run's condition gates whenever the agent's does: it is the same, or one of the alternatives of an `any`. */
function covers(run: Condition, agent: Condition | undefined): boolean {
  if (!agent) return false;
  return deepEqual(run, agent) || ('any' in run && run.any.some((c) => deepEqual(c, agent)));
}
