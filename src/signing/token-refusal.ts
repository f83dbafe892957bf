/**
 * Why a decision or request token was refused: a stable code for programs (the workflow's refusal, HTTP, the audit log) and a
 * message for people. Verification returns these instead of throwing: workflow code refuses input, it never throws
 * on it.
 */
export const TOKEN_REFUSAL_CODES = [
  /** The decision (or the start) carries no token, and the run requires one. */
  'unsigned',
  /** Longer than MAX_TOKEN_LENGTH: refused before anything is decoded. */
  'oversized',
  /** Not three base64url segments of a JSON header and payload, or a header without a key id. */
  'malformed',
  /** `alg` is `none`, an HMAC algorithm, or one the issuer is not trusted to use. */
  'alg_not_allowed',
  /** No trusted key has the token's key id (or it was rotated out), or the key does not fit the algorithm. */
  'unknown_key',
  'bad_signature',
  /** The signed claims do not have the decision token's shape (or the provider's token lacks a claim). */
  'invalid_claims',
  'wrong_issuer',
  'wrong_audience',
  'wrong_token_type',
  'expired',
  'not_yet_valid',
  /** `exp - iat` is longer than the issuer may grant. */
  'lifetime_too_long',
  'wrong_workflow',
  /** A request token for another agent than the run's. */
  'wrong_agent',
  /** A request token signed for another prompt than the run's. */
  'prompt_mismatch',
  'wrong_call',
  /** The arguments the approver saw are not the pending call's. */
  'args_mismatch',
  'wrong_decision_type',
  /** The decision's content (edited arguments, target tool, message, `always`) is not what was signed. */
  'content_mismatch',
  /** An OpenID Connect token whose `nonce` does not bind this decision (workflow, call, arguments, type, content). */
  'binding_mismatch',
  /** This token id was already used in this run. */
  'replayed',
] as const;
export type TokenRefusalCode = (typeof TOKEN_REFUSAL_CODES)[number];

export interface TokenRefusal {
  ok: false;
  code: TokenRefusalCode;
  message: string;
}

export function refuse(code: TokenRefusalCode, message: string): TokenRefusal {
  return { ok: false, code, message };
}
