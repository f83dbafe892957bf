/**
 * What a run would fail on as soon as it starts, checked where the run is asked for so the caller gets the error
 * instead of a started run that has already failed: an agent these agents do not have, or a run policy or breakpoints
 * that would loosen its agent's. The workflow checks them again (src/workflows/run-policy.ts) and stays the authority.
 * Names that name no one (src/policy/approver-entries.ts) are the client's to refuse (src/client/start-input.ts); they
 * are checked here first too, so that an entry with a typo is called that rather than a loosening. So are a run
 * policy's predicates and rule reviewers that are not there or are given options they do not take
 * (policy-option-check.ts), which the workflow does not look for: their calls would fail closed, or go to people.
 */
import { startInputDepthProblem } from '../bounds/json-depth.js';
import { inputProblems } from '../client/input-problems.js';
import { InvalidRunInputError, UnknownAgentError } from '../errors.js';
import { throwNamingProblems } from '../policy/approver-entries.js';
import { checkRunBreakpoints } from '../policy/tighten-breakpoints.js';
import { mergePolicy } from '../policy/merge-policy.js';
import { gatesOf, unreachableApprovals, unreachableBreakpoints } from '../policy/reachable-approvals.js';
import { looseningRefusal, loosenings } from '../policy/tighten-only.js';
import { reviewerMayApprove } from '../reviewers/reviewer-may-approve.js';
import { breakpointsAsApplied, Interrupts } from '../schemas/agent-options.js';
import { ApprovalPolicyOverride } from '../schemas/approval-policy.js';
import { policyOptionProblems } from './policy-option-check.js';
import type { AgentRegistry } from './registry.js';

/** At most this many problems are listed in one refusal. */
const LISTED_PROBLEMS = 20;

/**
 * @param options.unknownAgents `refuse` where these agents are all the workers serve (the API's); `allow` where
 *   the workers may know more (the CLI, whose environment may lack the workers' agents file). @default 'refuse'
 */
export function checkRunStart(
  agents: AgentRegistry,
  input: { agent: string; approval?: unknown; interrupt?: unknown; requestedBy?: string },
  options: { unknownAgents: 'refuse' | 'allow' } = { unknownAgents: 'refuse' },
): void {
  // As the workflow refuses it (start-input-refusal.ts), before the schemas below overflow the stack on it.
  const tooDeep = startInputDepthProblem(input);
  if (tooDeep) throw new InvalidRunInputError(tooDeep);
  const agent = Object.hasOwn(agents, input.agent) ? agents[input.agent] : undefined;
  if (!agent && options.unknownAgents === 'refuse') throw new UnknownAgentError(input.agent, Object.keys(agents));
  const approval = input.approval === undefined ? undefined : ApprovalPolicyOverride.safeParse(input.approval);
  if (approval && !approval.success) throw new InvalidRunInputError(`approval: ${inputProblems(approval.error)}`);
  // Breakpoints of the wrong shape are the client's to word, with the rest of the input's shape (start-input.ts).
  throwNamingProblems({ approval: approval?.data, interrupt: input.interrupt });
  // Whatever the agent allows: a predicate or rule that is not there, or options it does not take, fail calls closed.
  const named = policyOptionProblems(approval?.data);
  if (named.length) throw new InvalidRunInputError(listed(named.map((p) => `approval.${p.path.join('.')}: ${p.message}`)));
  if (!agent) return;
  // A gate the run's policy, or its requester under four eyes, leaves no one to satisfy: its calls could only time out.
  const effective = mergePolicy(agent.approval, approval?.data);
  const [unreachable] = unreachableApprovals(effective, input.requestedBy, gatesOf(effective, agent.tools));
  if (unreachable) throw new InvalidRunInputError(`approval.${unreachable.path.join('.')}: ${unreachable.message}`);
  const own = Interrupts.safeParse(input.interrupt ?? {});
  if (own.success) {
    const [stuck] = unreachableBreakpoints(breakpointsAsApplied(own.data, agent.interrupt), effective, input.requestedBy);
    if (stuck) throw new InvalidRunInputError(`${stuck.path.join('.')}: ${stuck.message}`);
  }
  if (agent.approval.runOverrides !== 'tighten') return;
  if (approval) {
    const problems = loosenings(agent.approval, approval.data, { reviewerMayApprove });
    if (problems.length) throw looseningRefusal(agent.name, problems);
  }
  const interrupt = Interrupts.safeParse(input.interrupt);
  if (!interrupt.success) return;
  const runOnTimeout = approval?.data.onTimeout ?? agent.approval.onTimeout;
  checkRunBreakpoints({ ...agent, policy: agent.approval }, interrupt.data, runOnTimeout, true);
}

function listed(lines: string[]): string {
  const shown = lines.slice(0, LISTED_PROBLEMS);
  return [...shown, ...(lines.length > shown.length ? [`… and ${lines.length - shown.length} more`] : [])].join('\n');
}
