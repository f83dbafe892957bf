/**
 * Decides whether one tool call waits for a human, under which settings, and which rule said so. Pure: the
 * workflow calls it, and its outcome is kept in the run state.
 */
import type { GateSettings } from '../schemas/call-record.js';
import { DECISION_TYPES } from '../schemas/decision.js';
import type { ApprovalPolicy, ToolPolicy } from '../schemas/approval-policy.js';
import { durationToMs } from '../schemas/duration.js';
import { describeCondition, evaluateCondition } from './conditions.js';
import { describeCall } from './describe-call.js';

export type { GateSettings };

export type Classification = { gated: false; rule: string } | { gated: true; rule: string; settings: GateSettings };

/** @param context the run's context, for conditions on it (`{context: 'tier', …}`). */
export function classifyCall(
  policy: ApprovalPolicy,
  toolName: string,
  args: Record<string, unknown>,
  context: Readonly<Record<string, unknown>> = {},
): Classification {
  const listed = Object.hasOwn(policy.tools, toolName);
  const toolPolicy: ToolPolicy = listed ? policy.tools[toolName]! : policy.default;
  const source = listed ? `tools.${toolName}` : 'default';

  if (toolPolicy === false) return { gated: false, rule: `${source}: false` };
  const config = toolPolicy === true ? {} : toolPolicy;
  if (config.when && !evaluateCondition(config.when, args, context)) {
    return { gated: false, rule: `${source}.when: ${describeCondition(config.when)} did not hold` };
  }
  return {
    gated: true,
    rule: config.when ? `${source}.when: ${describeCondition(config.when)}` : `${source}: ${toolPolicy === true ? 'true' : 'gated'}`,
    settings: {
      allowedDecisions: config.allowedDecisions ?? [...DECISION_TYPES],
      description: describeCall(toolName, args, policy.descriptionPrefix, config.description),
      ...(config.description !== undefined && { descriptionFromPolicy: true }),
      timeoutMs: durationToMs(config.timeout ?? policy.timeout),
      onTimeout: config.onTimeout ?? policy.onTimeout,
      approvers: config.approvers,
      remindersMs: (config.reminders ?? []).map(durationToMs),
    },
  };
}
