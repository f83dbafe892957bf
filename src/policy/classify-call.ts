/**
 * Decides whether one tool call waits for a human, under which settings, and which rule said so. Pure: the
 * workflow calls it, and its outcome is kept in the run state.
 *
 * The policy entry for a tool is the one under its name, else under the most specific pattern that matches it
 * (`fs__*`; see src/tools/tool-names.ts). A tool with no entry follows its MCP annotations when it has them
 * (`readOnlyHint: true` runs, `destructiveHint: true` waits), else the policy's `default`.
 */
import type { GateSettings } from '../schemas/call-record.js';
import { DECISION_TYPES } from '../schemas/decision.js';
import type { ApprovalPolicy, ToolPolicy } from '../schemas/approval-policy.js';
import { durationToMs } from '../schemas/duration.js';
import type { McpToolAnnotations } from '../schemas/mcp-tool.js';
import { bestMatch } from '../tools/tool-names.js';
import { NO_FACTS, type CallFacts } from './call-facts.js';
import { describeCondition, evaluateCondition } from './conditions.js';
import { describeCall } from './describe-call.js';
import { truncateJsonBytes } from '../bounds/truncate.js';

export type { GateSettings };

export type Classification = { gated: false; rule: string } | { gated: true; rule: string; settings: GateSettings };

/**
 * @param facts what conditions may know besides the arguments (the run's context, requester, agent, call id)
 * @param hints the tool's MCP annotations, for a tool the policy does not list
 * @param options.descriptionBytes cut the description approvers read to this size (truncateJsonBytes)
 */
export function classifyCall(
  policy: ApprovalPolicy,
  toolName: string,
  args: Record<string, unknown>,
  facts: Omit<CallFacts, 'toolName'> = NO_FACTS,
  hints?: McpToolAnnotations,
  options: { descriptionBytes?: number } = {},
): Classification {
  const key = bestMatch(Object.keys(policy.tools), toolName);
  // The MCP spec: destructiveHint means something only for a tool that is not read-only.
  if (key === undefined && hints?.readOnlyHint === true) return { gated: false, rule: 'mcp annotations: readOnlyHint' };
  const byHint = key === undefined && hints?.destructiveHint === true;
  const toolPolicy: ToolPolicy = key !== undefined ? policy.tools[key]! : byHint ? true : policy.default;
  const source = key !== undefined ? `tools.${key}` : byHint ? 'mcp annotations: destructiveHint' : 'default';
  if (toolPolicy === false) return { gated: false, rule: `${source}: false` };
  const config = toolPolicy === true ? {} : toolPolicy;
  if (config.when && !evaluateCondition(config.when, args, { ...facts, toolName })) {
    return { gated: false, rule: `${source}.when: ${describeCondition(config.when)} did not hold` };
  }
  return {
    gated: true,
    rule: config.when
      ? `${source}.when: ${describeCondition(config.when)}`
      : byHint
        ? source
        : `${source}: ${toolPolicy === true ? 'true' : 'gated'}`,
    settings: {
      allowedDecisions: config.allowedDecisions ?? [...DECISION_TYPES],
      description: cutTo(describeCall(toolName, args, policy.descriptionPrefix, config.description), options.descriptionBytes),
      ...(config.description !== undefined && { descriptionFromPolicy: true }),
      timeoutMs: durationToMs(config.timeout ?? policy.timeout),
      onTimeout: config.onTimeout ?? policy.onTimeout,
      approvers: config.approvers,
      remindersMs: (config.reminders ?? []).map(durationToMs),
      ...(config.requiredApprovals !== undefined && config.requiredApprovals > 1 && { requiredApprovals: config.requiredApprovals }),
      ...(config.review && { review: config.review }),
      ...(config.escalate && {
        escalate: config.escalate.map((tier) => ({ afterMs: durationToMs(tier.after), approvers: tier.approvers })),
      }),
      ...(config.validFor && { validForMs: durationToMs(config.validFor) }),
    },
  };
}

function cutTo(text: string, maxBytes: number | undefined): string {
  return maxBytes === undefined ? text : truncateJsonBytes(text, maxBytes);
}
