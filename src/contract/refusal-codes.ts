/** Why a decision was refused: the `code` of a DecisionRefusedError (src/errors.ts), the same on every channel. */
export const REFUSAL_CODES = [
  'malformed',
  'empty',
  'too_large',
  'mixed_ids',
  'duplicate_id',
  'unknown_call',
  'already_decided',
  'decision_not_allowed',
  'unknown_tool',
  'invalid_edit_args',
  'args_hash_mismatch',
  /** A decision that names a tool (`toolName`, a LangGraph accept's action) for a call of another tool. */
  'tool_mismatch',
  'batch_count_mismatch',
  'nothing_pending',
  'approver_required',
  'approver_not_allowed',
  'four_eyes',
  'already_approved',
  'not_ready',
  'run_closed',
  'run_stuck',
  'busy',
  'token_refused',
  /** A token sent to a run that started checking none: the client sends the decision again unsigned, as it claims. */
  'tokens_unchecked',
  'internal',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/**
 * The failure type of an update a run refused because it was applying a local activity's result that reached it late
 * (src/workflows/late-local-result.ts): nothing was recorded, and the same update sent again a moment later is taken.
 * Its details carry the code `busy`.
 */
export const RUN_BUSY_TYPE = 'RunBusy';
