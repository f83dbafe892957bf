import { ApprovalPolicy, type ApprovalPolicyOverride, type ToolPolicy } from '../schemas/approval-policy.js';
import { bestMatch, isPattern } from '../tools/tool-names.js';

/**
 * The run's effective policy: the agent's, with the run's overrides on top. A run's entry for a tool that is an object
 * is laid over the entry the agent gives that tool (its own, a pattern's or the default), field by field, with
 * `layEntries`: `{timeout: '1h'}` keeps the agent's approvers and allowed decisions. `true`, `false`, an entry for a
 * pattern, and every entry without `layEntries` (runs from before patch set 23) replace the agent's.
 */
export function mergePolicy(base: ApprovalPolicy, override: ApprovalPolicyOverride | undefined, layEntries = true): ApprovalPolicy {
  if (!override) return base;
  const { tools = {}, ...rest } = override;
  const entries = layEntries ? Object.fromEntries(Object.entries(tools).map(([key, entry]) => [key, laidOver(base, key, entry)])) : tools;
  return ApprovalPolicy.parse({ ...base, ...rest, tools: { ...base.tools, ...entries } });
}

/** The run's entry for `key` as it stands once laid over the agent's (see mergePolicy). */
export function laidOver(agent: ApprovalPolicy, key: string, entry: ToolPolicy): ToolPolicy {
  if (typeof entry !== 'object' || isPattern(key)) return entry;
  const under = agentEntryFor(agent, key);
  return typeof under === 'object' ? { ...under, ...entry } : entry;
}

/** The entry the agent's policy gives the tool `name`: its own, the most specific pattern's, or the default. */
export function agentEntryFor(agent: ApprovalPolicy, name: string): ToolPolicy {
  const own = bestMatch(Object.keys(agent.tools), name);
  return own === undefined ? agent.default : agent.tools[own]!;
}
