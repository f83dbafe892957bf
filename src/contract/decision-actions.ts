/**
 * The four ways to decide one call, as the CLI and the HTTP API offer them, and the one mapping from an action and
 * its options to the `Decision` the run receives. Both front ends name their options differently (`--message`,
 * `reason`, `comment`, `modifiedArguments`) and translate to this shape first.
 */
import type { Decision } from '../schemas/decision.js';
import type { ToolArgs } from '../schemas/tool-args.js';

export const DECISION_ACTIONS = ['approve', 'reject', 'edit', 'respond'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

export interface ActionOptions {
  /** The reason (reject), the tool result (respond), or a comment for the audit log (approve, edit). */
  message?: string;
  /** New arguments: an edit, or an approval with modified arguments (which is an edit). */
  args?: ToolArgs;
  /** Edit into another tool. */
  name?: string;
  /** Approve or reject every later call of this tool in this run. */
  always?: boolean;
  argsHash?: string;
}

/** The decision for `callId`, or the reason these options do not make one. */
export function decisionFor(action: DecisionAction, callId: string, options: ActionOptions): Decision | { invalid: string } {
  const { message, args, name, always, argsHash } = options;
  const edits = action === 'edit' || (action === 'approve' && args !== undefined);
  if (edits && always) return { invalid: '`always` applies to approve and reject as they are, not to new arguments.' };
  if (action === 'edit' && args === undefined && name === undefined) return { invalid: 'An edit needs new arguments and/or a tool name.' };
  if (action === 'respond' && !message) return { invalid: 'A response needs the message the model receives as the tool result.' };
  if (!edits && name !== undefined) return { invalid: 'A tool name belongs to an edit.' };
  const decision: Decision = edits
    ? { id: callId, type: 'edit', ...(args !== undefined && { args }), ...(name !== undefined && { name }) }
    : { id: callId, type: action, ...(always && { always }) };
  return { ...decision, ...(message !== undefined && { message }), ...(argsHash !== undefined && { argsHash }) };
}
