/**
 * Checks a decision input against what is pending and turns it into a plan, or refuses it whole with a reason.
 * Pure: the update validator, the update handler and the signal handler all call it, so every channel refuses
 * the same inputs with the same words.
 */
import { z } from 'zod';
import { DecisionRefusedError } from '../errors/decision-refused-error.js';
import { argsHash } from '../policy/args-hash.js';
import { classifyCall } from '../policy/classify-call.js';
import type { ApprovalPolicy } from '../schemas/approval-policy.js';
import { DecideInput, type Decision } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { ToolSpec } from '../tools/define-tool.js';
import { parseToolArguments } from '../tools/tool-arguments.js';

export interface DecidedSummary {
  type: string;
  approver?: string;
}

export interface PlanContext {
  /** Undecided calls, oldest first, in the order the model asked for them. */
  pending: readonly PendingApproval[];
  decided: ReadonlyMap<string, DecidedSummary>;
  available: readonly string[];
  specs: Readonly<Record<string, ToolSpec>>;
  /** The run's policy: an edit into a gated call needs an approver that call would need. */
  policy?: ApprovalPolicy;
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
}

export type Plan =
  { ok: true; input: DecideInput; decisions: PlannedDecision[] } | { ok: false; error: DecisionRefusedError; input?: DecideInput };

export function planDecisions(raw: unknown, ctx: PlanContext): Plan {
  const parsed = DecideInput.safeParse(raw);
  if (!parsed.success) {
    const empty = parsed.error.issues.some((i) => i.path.join('.') === 'decisions' && i.code === 'too_small');
    return refuse(empty ? 'empty' : 'malformed', `Malformed decision input:\n${z.prettifyError(parsed.error)}`);
  }
  const input = parsed.data;
  const calls = matchCalls(input, ctx);
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

/** Pairs each decision with its call: by id (any subset, any order), or in order onto the oldest pending batch. */
function matchCalls(input: DecideInput, ctx: PlanContext): PendingApproval[] | DecisionRefusedError {
  const withIds = input.decisions.filter((d) => d.id !== undefined).length;
  if (withIds > 0 && withIds < input.decisions.length) {
    return new DecisionRefusedError(
      'mixed_ids',
      'Give every decision an id, or none (then they apply in order to the oldest pending batch).',
    );
  }
  if (withIds === 0) {
    const oldest = ctx.pending[0];
    if (!oldest) return new DecisionRefusedError('nothing_pending', 'Nothing is waiting for a decision in this run.');
    const batch = ctx.pending.filter((p) => batchKey(p) === batchKey(oldest));
    if (batch.length !== input.decisions.length) {
      return new DecisionRefusedError(
        'batch_count_mismatch',
        `Got ${input.decisions.length} decision(s) without ids, but the oldest pending batch has ${batch.length} call(s) ` +
          `(${batch.map((p) => `${p.id} ${p.toolName}`).join(', ')}). Send one decision per call in that order, or use ids.`,
      );
    }
    return batch;
  }
  const seen = new Set<string>();
  const calls: PendingApproval[] = [];
  for (const { id } of input.decisions) {
    if (seen.has(id!)) return new DecisionRefusedError('duplicate_id', `Call ${id} appears more than once in this input.`);
    seen.add(id!);
    const call = ctx.pending.find((p) => p.id === id);
    if (call) {
      calls.push(call);
      continue;
    }
    const earlier = ctx.decided.get(id!);
    if (earlier) {
      return new DecisionRefusedError(
        'already_decided',
        `Call ${id} was already decided (${earlier.type}${earlier.approver ? ` by ${earlier.approver}` : ''}).`,
      );
    }
    const waiting = ctx.pending.map((p) => p.id).join(', ') || 'none';
    return new DecisionRefusedError('unknown_call', `No pending call has id ${id}. Pending: ${waiting}.`);
  }
  return calls;
}

function batchKey(p: PendingApproval): string {
  return `${p.workflowId ?? ''}#${p.step}`;
}

function checkOne(decision: Decision, call: PendingApproval, input: DecideInput, ctx: PlanContext): PlannedDecision | DecisionRefusedError {
  const label = `${call.toolName} (call ${call.id})`;
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
  const groups = input.groups ?? [];
  if (call.approvers) {
    const refused = checkApprover(call.approvers, approver, groups, label);
    if (refused) return refused;
  }
  const runsTheTool = decision.type === 'approve' || decision.type === 'edit';
  const v2 = (call.checks ?? 1) >= 2;
  if (runsTheTool && call.excludedApprovers) {
    if (approver === undefined && v2) {
      return new DecisionRefusedError('approver_required', `${label} falls under the four-eyes rule; say who you are (approver).`);
    }
    if (approver !== undefined && call.excludedApprovers.includes(approver)) {
      return new DecisionRefusedError(
        'four_eyes',
        `${approver} requested this run and may not ${decision.type} its own ${label}; another approver must.`,
      );
    }
  }

  if (decision.type !== 'edit') {
    return { call, decision, approver, toolName: call.toolName, args: call.args, argsHash: call.argsHash };
  }
  const toolName = decision.name ?? call.toolName;
  const available = call.workflowId ? (ctx.subAgentTools?.get(call.workflowId) ?? []) : ctx.available;
  const checked = parseToolArguments(toolName, decision.args ?? call.args, ctx.specs, available);
  if (!checked.ok) {
    const code = checked.problem === 'unknown_tool' ? 'unknown_tool' : 'invalid_edit_args';
    const message =
      code === 'unknown_tool'
        ? `Cannot edit ${label} into ${toolName}: this agent has no such tool (tools: ${available.join(', ')}).`
        : `The edited arguments for ${toolName} are invalid:\n${checked.message.split('\n').slice(1, -1).join('\n')}`;
    return new DecisionRefusedError(code, message);
  }
  // What runs after an edit must be something this approver could have approved directly: the target call's own
  // approvers apply (a sub-agent's run checks its own policy when the decision reaches it).
  const target = v2 && ctx.policy && !call.workflowId ? classifyCall(ctx.policy, toolName, checked.args) : undefined;
  if (target?.gated && target.settings.approvers) {
    const refused = checkApprover(target.settings.approvers, approver, groups, `the edited call (${toolName})`);
    if (refused) return refused;
  }
  return { call, decision, approver, toolName, args: checked.args, argsHash: argsHash(checked.args) };
}

function checkApprover(
  approvers: string[],
  approver: string | undefined,
  groups: string[],
  label: string,
): DecisionRefusedError | undefined {
  if (!approver) {
    return new DecisionRefusedError(
      'approver_required',
      `${label} may only be decided by ${approvers.join(', ')}; say who you are (approver).`,
    );
  }
  if (!approvers.includes(approver) && !groups.some((g) => approvers.includes(g))) {
    return new DecisionRefusedError('approver_not_allowed', `${approver} may not decide ${label}; approvers: ${approvers.join(', ')}.`);
  }
  return undefined;
}
