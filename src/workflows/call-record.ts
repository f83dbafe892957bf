/** One tool call of the open step, from classification to result. Plain data, so it can cross continue-as-new. */
import type { GateSettings } from '../policy/classify-call.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { ToolArgs } from '../schemas/tool-args.js';

export type DecidedVia = 'update' | 'signal' | 'sticky' | 'timeout';

export type Resolution =
  | { kind: 'approve'; via: DecidedVia; approver?: string }
  | { kind: 'edit'; via: DecidedVia; approver?: string; toolName: string; args: ToolArgs }
  | { kind: 'reject'; via: DecidedVia; approver?: string; message?: string }
  | { kind: 'respond'; via: DecidedVia; approver?: string; message: string }
  /** onTimeout: 'reject' */
  | { kind: 'timeout' };

export interface CallRecord {
  id: string;
  toolName: string;
  /** The model's JSON text. */
  rawArgs: string;
  step: number;
  /** Parsed and valid; absent when the call is invalid (it then goes straight back to the model as an error). */
  args?: ToolArgs;
  /** The policy rule that classified the call. */
  rule: string;
  gate?: GateSettings;
  pending?: PendingApproval;
  resolution?: Resolution;
  /** The tool message content, once settled. */
  result?: string;
}
