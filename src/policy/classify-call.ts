/**
 * Decides whether one tool call waits for a human, under which settings, and which rule said so. Pure: the
 * workflow calls it, and its outcome is kept in the run state.
 *
 * The policy entry for a tool is the one under its name, else under the most specific pattern that matches it
 * (`fs__*`; see src/tools/tool-names.ts). A tool with no entry follows its MCP annotations when it has them
 * (`readOnlyHint: true` runs, `destructiveHint: true` waits, both wait), else the policy's `default`.
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
import { foldedForGates } from '../bounds/gate-reading.js';
import { hiddenCharacterPath } from '../bounds/hidden-in-text.js';
import { truncateChars, truncateJsonBytes } from '../bounds/truncate.js';

export type { GateSettings };

export type Classification = { gated: false; rule: string } | { gated: true; rule: string; settings: GateSettings };

export interface ClassifyOptions {
  /** Cut the description approvers read to this size (truncateJsonBytes). */
  descriptionBytes?: number;
  /**
   * Gates that would let a call through on what cannot be trusted wait for people instead (patch set 28): a tool
   * that says it is both read-only and destructive, and a `when` condition read over arguments holding a hidden
   * character (src/bounds/hidden-in-text.ts), which a tester's "Re\u00adfund" subject slipped past a
   * `matches: refund` gate with.
   */
  failSafe?: boolean;
  /**
   * A `when` that did not hold over the arguments as written is read again over them folded
   * (src/bounds/gate-reading.ts): full-width letters and other spaces as ASCII (patch set 32). A tester's
   * "Ｒｅｆｕｎｄ" subject passed the demo's `matches: refund` gate. With it, the rule quotes the path where a hidden
   * character is, cut to 200 characters: its keys are the model's, and unquoted they could read as the policy's words.
   */
  foldsText?: boolean;
}

/**
 * @param facts what conditions may know besides the arguments (the run's context, requester, agent, call id)
 * @param hints the tool's MCP annotations, for a tool the policy does not list
 */
export function classifyCall(
  policy: ApprovalPolicy,
  toolName: string,
  args: Record<string, unknown>,
  facts: Omit<CallFacts, 'toolName'> = NO_FACTS,
  hints?: McpToolAnnotations,
  options: ClassifyOptions = {},
): Classification {
  const key = bestMatch(Object.keys(policy.tools), toolName);
  // The MCP spec: destructiveHint means something only for a tool that is not read-only; a server that says both
  // contradicts itself, and is taken at its more careful word.
  const bothHints = options.failSafe === true && hints?.readOnlyHint === true && hints.destructiveHint === true;
  if (key === undefined && hints?.readOnlyHint === true && !bothHints) return { gated: false, rule: 'mcp annotations: readOnlyHint' };
  const byHint = key === undefined && hints?.destructiveHint === true;
  const toolPolicy: ToolPolicy = key !== undefined ? policy.tools[key]! : byHint ? true : policy.default;
  const source =
    key !== undefined
      ? `tools.${key}`
      : bothHints
        ? 'mcp annotations: destructiveHint (readOnlyHint too)'
        : byHint
          ? 'mcp annotations: destructiveHint'
          : 'default';
  if (toolPolicy === false) return { gated: false, rule: `${source}: false` };
  const config = toolPolicy === true ? {} : toolPolicy;
  let hidden: string | undefined;
  let folded = false;
  const holds = (read: Record<string, unknown>) => evaluateCondition(config.when!, read, { ...facts, toolName });
  if (config.when && !holds(args)) {
    // Either reading that holds gates the call: a fold only ever adds calls that wait.
    const foldedArgs = options.foldsText === true ? foldedForGates(args) : undefined;
    folded = foldedArgs !== undefined && holds(foldedArgs);
    // What the condition read may not be what people read: they judge it, and see the character shown as an escape.
    hidden = !folded && options.failSafe === true ? hiddenCharacterPath(args) : undefined;
    if (!folded && hidden === undefined) return { gated: false, rule: `${source}.when: ${describeCondition(config.when)} did not hold` };
  }
  return {
    gated: true,
    rule: folded
      ? `${source}.when: ${describeCondition(config.when!)}, with full-width letters and other spaces read as ASCII`
      : hidden !== undefined
        ? `${source}.when: ${describeCondition(config.when!)} did not hold, but ${options.foldsText ? JSON.stringify(truncateChars(hidden, 200)) : hidden} holds a hidden character`
        : config.when
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
