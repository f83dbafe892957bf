/**
 * The decision planner's part for breakpoints (pending items `break-<n>`): approve and reject need nothing more;
 * an edit must be what the breakpoint shows, changed: the messages the model has not seen yet (before the model),
 * the reply (after it), or the tool calls (before tools). Pure, like the rest of the planner.
 */
import { z } from 'zod';
import { isBlankText } from '../bounds/blank-text.js';
import { jsonDepthExceeds } from '../bounds/json-depth.js';
import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import { DecisionRefusedError } from '../errors.js';
import { argsHash } from '../policy/args-hash.js';
import { BREAKPOINT_EDITS, type BreakpointKind } from '../schemas/agent-options.js';
import type { Decision } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { PlanContext, PlannedDecision } from './decision-context.js';

export function planBreakpoint(
  decision: Decision,
  call: PendingApproval & { breakpoint: BreakpointKind },
  who: Pick<PlannedDecision, 'approver' | 'token'>,
  ctx: Pick<PlanContext, 'refusesBlankUserMessages'> = {},
): PlannedDecision | DecisionRefusedError {
  const label = `the breakpoint ${call.id} (${call.breakpoint})`;
  if (decision.always) return new DecisionRefusedError('decision_not_allowed', `\`always\` does not apply to ${label}.`);
  const base = { call, decision, ...who, toolName: call.toolName };
  if (decision.type !== 'edit') return { ...base, args: call.args, argsHash: call.argsHash };
  if (decision.name !== undefined || decision.args === undefined) {
    return new DecisionRefusedError('invalid_edit_args', `An edit of ${label} sends new \`args\` (no \`name\`).`);
  }
  if (jsonDepthExceeds(decision.args) || utf8Length(JSON.stringify(decision.args)) > LIMITS.argumentsBytes) {
    return new DecisionRefusedError(
      'too_large',
      `The edited args of ${label} are over ${LIMITS.argumentsBytes} bytes (or nest over 64 deep).`,
    );
  }
  const parsed = BREAKPOINT_EDITS[call.breakpoint].safeParse(decision.args);
  if (!parsed.success) {
    return new DecisionRefusedError('invalid_edit_args', `The edited args of ${label} are invalid:\n${z.prettifyError(parsed.error)}`);
  }
  const args = parsed.data as Record<string, unknown>;
  if (call.breakpoint === 'beforeModel') {
    // An empty turn says nothing to the model, and some model APIs refuse it: the run's next call would fail.
    const blank = ctx.refusesBlankUserMessages
      ? (args.messages as { role: string; content?: string }[]).findIndex((m) => m.role === 'user' && isBlankText(m.content!))
      : -1;
    if (blank >= 0) {
      return new DecisionRefusedError(
        'invalid_edit_args',
        `The edited messages of ${label} hold a user message with no text (messages[${blank}]); drop it, or write what it says.`,
      );
    }
    // The answers to the model's calls must stay, each once, in order: the model API refuses anything else.
    const ids = (messages: unknown) =>
      ((messages ?? []) as { role: string; tool_call_id?: string }[]).flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    const before = ids(call.args.messages);
    const after = ids(args.messages);
    if (before.join('\n') !== after.join('\n')) {
      return new DecisionRefusedError(
        'invalid_edit_args',
        `The edited messages of ${label} must keep the answers to the model's calls (tool_call_id ${before.join(', ') || 'none'}), each once and in order; change their content, not their ids.`,
      );
    }
  }
  return { ...base, args, argsHash: argsHash(args) };
}
