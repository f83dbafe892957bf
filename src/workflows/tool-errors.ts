/**
 * What the model reads (or whether the run fails) when a tool fails after its last retry: the agent's `toolErrors`
 * entry for the tool, else the tool's own `onError`, else `return`. A failure is named by its code or name, so an
 * `errors` map picks its message (LangGraph's `handle_tool_errors` as a map of exception types).
 */
import { ActivityFailure, ApplicationFailure, CancelledFailure, ChildWorkflowFailure, TimeoutFailure } from '@temporalio/common';
import { ToolFailedError } from '../errors.js';
import { TIMEOUT_NAME, type OnToolError, type ToolErrorAction, type ToolErrorIdentity } from '../schemas/tool-errors.js';
import { toolErrorMessage } from './tool-messages.js';

/** How a tool call fails: an activity or child failure, or a local activity's bare ApplicationFailure. */
export type ToolFailure = ActivityFailure | ChildWorkflowFailure | ApplicationFailure;

function causeOf(failure: ToolFailure): Error | undefined {
  return failure instanceof ApplicationFailure ? failure : failure.cause;
}

/** The model's answer for a failed call, or a thrown ToolFailedError when the rule says `fail`. */
export function answerToolFailure(rule: OnToolError | undefined, failure: ToolFailure, call: { toolName: string; callId: string }): string {
  const cause = causeOf(failure);
  // A cancelled sub-agent's cause has no message of its own; a terminated one's says "Terminated".
  const reason = cause instanceof CancelledFailure ? 'Cancelled' : cause instanceof Error ? cause.message : failure.message;
  const action = actionFor(rule ?? 'return', identify(failure));
  if (action === 'fail') throw new ToolFailedError(call.toolName, call.callId, reason);
  return action === 'return' ? toolErrorMessage(reason) : action.message;
}

function actionFor(rule: OnToolError, identity: ToolErrorIdentity): ToolErrorAction {
  if (typeof rule === 'string' || 'message' in rule) return rule;
  const byCode = identity.code !== undefined && Object.hasOwn(rule.errors, identity.code) ? rule.errors[identity.code] : undefined;
  const byName = Object.hasOwn(rule.errors, identity.name) ? rule.errors[identity.name] : undefined;
  const message = byCode ?? byName;
  return message !== undefined ? { message } : (rule.fallback ?? 'return');
}

/**
 * A tool's own exception arrives as a `ToolError` naming it (src/activities/execute-tool.ts); our errors and the
 * ApplicationFailures a tool throws itself are named by their type and their `code` detail; a timed-out attempt is
 * `Timeout`.
 */
export function identify(failure: ToolFailure): ToolErrorIdentity {
  const cause = causeOf(failure);
  if (cause instanceof TimeoutFailure) return { name: TIMEOUT_NAME };
  if (!(cause instanceof ApplicationFailure)) return { name: cause?.name ?? 'Error' };
  const detail = (cause.details?.[0] ?? {}) as { name?: unknown; code?: unknown };
  const code = typeof detail.code === 'string' ? { code: detail.code } : {};
  if (cause.type === 'ToolError' && typeof detail.name === 'string') return { name: detail.name, ...code };
  return { name: cause.type ?? 'Error', ...code };
}
