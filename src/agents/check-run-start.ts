/**
 * What a run would fail on as soon as it starts, checked where the run is asked for so the caller gets the error
 * instead of a started run that has already failed: an agent these agents do not have, or a run policy that would
 * loosen its agent's. Also what would not fail but lock a tool for the run: an approver entry that names no one. The
 * workflow checks the policy again (src/workflows/run-policy.ts) and stays the authority.
 */
import { z } from 'zod';
import { InvalidRunInputError, UnknownAgentError } from '../errors.js';
import { approverEntryProblems } from '../policy/approver-entries.js';
import { looseningRefusal, loosenings } from '../policy/tighten-only.js';
import { ApprovalPolicyOverride } from '../schemas/approval-policy.js';
import type { AgentRegistry } from './registry.js';

/**
 * @param options.unknownAgents `refuse` where these agents are all the workers serve (the API's); `allow` where
 *   the workers may know more (the CLI, whose environment may lack the workers' agents file). @default 'refuse'
 */
export function checkRunStart(
  agents: AgentRegistry,
  input: { agent: string; approval?: unknown },
  options: { unknownAgents: 'refuse' | 'allow' } = { unknownAgents: 'refuse' },
): void {
  const agent = Object.hasOwn(agents, input.agent) ? agents[input.agent] : undefined;
  if (!agent && options.unknownAgents === 'refuse') throw new UnknownAgentError(input.agent, Object.keys(agents));
  if (input.approval === undefined) return;
  const approval = ApprovalPolicyOverride.safeParse(input.approval);
  if (!approval.success) throw new InvalidRunInputError(`approval: ${z.prettifyError(approval.error)}`);
  const noOne = approverEntryProblems(approval.data);
  if (noOne.length) throw new InvalidRunInputError(noOne.map((p) => `approval.${p.path.join('.')}: ${p.message}`).join('\n'));
  if (!agent || agent.approval.runOverrides !== 'tighten') return;
  const problems = loosenings(agent.approval, approval.data);
  if (problems.length) throw looseningRefusal(agent.name, problems);
}
