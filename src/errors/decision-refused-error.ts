import { HitlError } from './hitl-error.js';

const NAME = 'DecisionRefusedError';

export const REFUSAL_CODES = [
  'malformed',
  'empty',
  'mixed_ids',
  'duplicate_id',
  'unknown_call',
  'already_decided',
  'decision_not_allowed',
  'unknown_tool',
  'invalid_edit_args',
  'args_hash_mismatch',
  'batch_count_mismatch',
  'nothing_pending',
  'approver_required',
  'approver_not_allowed',
  'four_eyes',
  'run_closed',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** A decision input the run refuses; nothing about the run changes. */
export class DecisionRefusedError extends HitlError {
  override readonly name = NAME;

  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }

  /** Reads the refusal code off a failure that crossed the wire (update rejection, HTTP). */
  static codeOf(failure: unknown): RefusalCode | undefined {
    const details = (failure as { details?: unknown[] } | undefined)?.details;
    const code = (details?.[0] as { code?: unknown } | undefined)?.code;
    return REFUSAL_CODES.includes(code as RefusalCode) ? (code as RefusalCode) : undefined;
  }

  static isInstance(error: unknown): error is DecisionRefusedError {
    return HitlError.hasName(error, NAME);
  }
}
