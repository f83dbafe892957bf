/**
 * Checks a decision input against what is pending and turns it into a plan, or refuses it whole with a reason.
 * Pure: the update validator, the update handler and the signal handler all call it, so every channel refuses
 * the same inputs with the same words. It never throws: an input it cannot judge is refused.
 */
import { z } from 'zod';
import { jsonDepthExceeds } from '../bounds/json-depth.js';
import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import { DecisionRefusedError } from '../errors.js';
import { argsHash } from '../policy/args-hash.js';
import { classifyCall } from '../policy/classify-call.js';
import { mayDecide, type Verdict } from '../policy/may-decide.js';
import type { ApprovalPolicy } from '../schemas/approval-policy.js';
import type { GateSettings } from '../schemas/call-record.js';
import type { DecidedSummary } from '../schemas/carried-state.js';
import { DecideInput, type Decision } from '../schemas/decision.js';
import type { McpTool } from '../schemas/mcp-tool.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { ToolSpec } from '../tools/define-tool.js';
import { parseToolArguments } from '../tools/tool-arguments.js';
import { checkMatch } from './decision-match.js';

export interface PlanContext {
  /** Undecided calls, oldest first, in the order the model asked for them. */
  pending: readonly PendingApproval[];
  /** What the run knows of calls no longer pending (who decided them), for "already decided". */
  decided: Pick<ReadonlyMap<string, DecidedSummary>, 'get'>;
  available: readonly string[];
  specs: Readonly<Record<string, ToolSpec>>;
  /** The MCP tools the run recorded when it started: edits into them are checked against their schemas. */
  mcpTools?: readonly McpTool[];
  /** The run's policy: an edit is judged by the policy of the call it turns into. */
  policy?: ApprovalPolicy;
  /** Under four eyes, the requester of the run (who may not approve what an edit turns into either). */
  requestedBy?: string;
  /** Tools of sub-agent runs, by workflow id, for edits of their calls. */
  subAgentTools?: ReadonlyMap<string, readonly string[]>;
}

export interface PlannedDecision {
  call: PendingApproval;
  decision: Decision;
  approver?: string;
  /** The tool and arguments that run (after an edit, the new ones). */
  toolName: string;
  args: ToolArgs;
  argsHash: string;
  /** The edit turned the call into one its approver may not approve: it waits for these settings' approvers. */
  proposal?: { gate: GateSettings };
}

export type Plan =
  { ok: true; input: DecideInput; decisions: PlannedDecision[] } | { ok: false; error: DecisionRefusedError; input?: DecideInput };

export function planDecisions(raw: unknown, ctx: PlanContext): Plan {
  try {
    return plan(raw, ctx);
  } catch (err) {
    return refuse('internal', `The decision could not be checked (${String(err)}); nothing was applied.`);
  }
}

function plan(raw: unknown, ctx: PlanContext): Plan {
  if (jsonDepthExceeds(raw)) return refuse('malformed', 'Malformed decision input: it nests deeper than 64 levels.');
  const bytes = utf8Length(JSON.stringify(raw) ?? '');
  if (bytes > LIMITS.decisionInputBytes) {
    return refuse('too_large', `The decision input is ${bytes} bytes; the limit is ${LIMITS.decisionInputBytes}.`);
  }
  const parsed = DecideInput.safeParse(raw);
  if (!parsed.success) {
    const empty = parsed.error.issues.some((i) => i.path.join('.') === 'decisions' && i.code === 'too_small');
    return refuse(empty ? 'empty' : 'malformed', `Malformed decision input:\n${z.prettifyError(parsed.error)}`);
  }
  const input = parsed.data;
  const calls = checkMatch(input, ctx);
  if (!Array.isArray(calls)) return { ok: false, error: calls, input };

  const decisions: PlannedDecision[] = [];
  for (const [i, decision] of input.decisions.entries()) {
    const planned = checkOne(decision, calls[i]!, input, ctx);
    if (planned instanceof DecisionRefusedError) return { ok: false, error: planned, input };
    decisions.push(planned);
  }
  return { ok: true, input, decisions };
}

function refuse(code: DecisionRefusedError['code'], message: string): Plan {
  return { ok: false, error: new DecisionRefusedError(code, message) };
}

function checkOne(decision: Decision, call: PendingApproval, input: DecideInput, ctx: PlanContext): PlannedDecision | DecisionRefusedError {
  const label = `${call.toolName} (${call.id})`;
  if (!call.allowedDecisions.includes(decision.type)) {
    return new DecisionRefusedError(
      'decision_not_allowed',
      `${decision.type} is not allowed for ${label}; allowed: ${call.allowedDecisions.join(', ')}.`,
    );
  }
  if (decision.argsHash !== undefined && decision.argsHash !== call.argsHash) {
    return new DecisionRefusedError(
      'args_hash_mismatch',
      `The argsHash sent for ${label} does not match its arguments (expected ${call.argsHash}): the arguments shown to you were not these. Reload and decide again.`,
    );
  }
  const approver = decision.approver ?? input.approver;
  const who = { approver, groups: input.groups ?? [] };
  const checks = call.checks ?? 1;
  const runsTheTool = decision.type === 'approve' || decision.type === 'edit';
  const verdict = mayDecide(call, who, runsTheTool, checks >= 2);
  if (!verdict.ok) return authorityRefusal(verdict, approver, decision.type, label);

  if (decision.type !== 'edit') {
    return { call, decision, approver, toolName: call.toolName, args: call.args, argsHash: call.argsHash };
  }
  const toolName = decision.name ?? call.toolName;
  const available = call.subAgentWorkflowId ? (ctx.subAgentTools?.get(call.subAgentWorkflowId) ?? []) : ctx.available;
  const newArgs = decision.args ?? call.args;
  if (jsonDepthExceeds(newArgs) || utf8Length(JSON.stringify(newArgs)) > LIMITS.argumentsBytes) {
    return new DecisionRefusedError(
      'too_large',
      `The edited arguments for ${toolName} are over the limit of ${LIMITS.argumentsBytes} bytes (or nest over 64 deep).`,
    );
  }
  const mcpTools = call.subAgentWorkflowId ? [] : ctx.mcpTools;
  const checked = parseToolArguments(toolName, newArgs, ctx.specs, available, mcpTools);
  if (!checked.ok) {
    const code = checked.problem === 'unknown_tool' ? 'unknown_tool' : 'invalid_edit_args';
    const message =
      code === 'unknown_tool'
        ? `Cannot edit ${label} into ${toolName}: this agent has no such tool (tools: ${available.join(', ')}).`
        : `The edited arguments for ${toolName} are invalid:\n${checked.message.split('\n').slice(1, -1).join('\n')}`;
    return new DecisionRefusedError(code, message);
  }
  const planned = { call, decision, approver, toolName, args: checked.args, argsHash: argsHash(checked.args) };
  // What runs after an edit is judged by the policy of what it becomes (a sub-agent's run judges its own calls).
  const hints = mcpTools?.find((tool) => tool.name === toolName)?.annotations;
  const target =
    checks >= 2 && ctx.policy && !call.subAgentWorkflowId ? classifyCall(ctx.policy, toolName, checked.args, hints) : undefined;
  if (!target?.gated) return planned;
  const targetAuthority = {
    ...(target.settings.approvers && { approvers: target.settings.approvers }),
    ...(call.excludedApprovers && { excludedApprovers: call.excludedApprovers }),
  };
  if (checks >= 3 && toolName !== call.toolName) {
    // As if the model had proposed the edited call: the edit is its approval only if this approver could approve it.
    const canApprove = target.settings.allowedDecisions.includes('approve') && mayDecide(targetAuthority, who, true).ok;
    return canApprove ? planned : { ...planned, proposal: { gate: target.settings } };
  }
  if (target.settings.approvers) {
    const refused = mayDecide({ approvers: target.settings.approvers }, who, false);
    if (!refused.ok) return authorityRefusal(refused, approver, decision.type, `the edited call (${toolName})`);
  }
  return planned;
}

/** The words of a refusal on authority grounds, the same for every channel. */
function authorityRefusal(
  verdict: Extract<Verdict, { ok: false }>,
  approver: string | undefined,
  type: string,
  label: string,
): DecisionRefusedError {
  switch (verdict.code) {
    case 'approver_required':
      return new DecisionRefusedError('approver_required', `${label} ${verdict.reason}; say who you are (approver).`);
    case 'approver_not_allowed':
      return new DecisionRefusedError('approver_not_allowed', `${approver} may not decide ${label}; ${verdict.reason}.`);
    case 'four_eyes':
      return new DecisionRefusedError(
        'four_eyes',
        `${approver} requested this run and may not ${type} its own ${label}; another approver must.`,
      );
  }
}
