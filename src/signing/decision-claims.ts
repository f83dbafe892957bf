/**
 * What a decision token says: who decides (`sub`, `groups`), which decision (`decision`: workflow, call, the
 * arguments the approver saw, the type and its content), and the JWT frame (`iss`, `aud`, `iat`, `exp`, `jti`).
 * One schema for the claims; the binding is what the workflow computes from the decision it received and compares.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { canonicalSha256 } from '../policy/args-hash.js';
import { DecisionType, type Decision } from '../schemas/decision.js';

/** The JWS `typ` of a decision token (RFC 8725 §3.11): a token minted for something else never passes as one. */
export const DECISION_TOKEN_TYPE = 'hitl-decision+jwt';
/** The same limits a decision's `approver` and `groups` have. */
export const MAX_SUBJECT_LENGTH = 200;
export const MAX_GROUPS = 50;

/** Seconds since the epoch (RFC 7519 NumericDate). */
const NumericDate = builtOnce('signing/decision-claims.NumericDate', () => z.int().nonnegative());

/** The decision a token is good for, and nothing else. */
export const DecisionBinding = builtOnce('signing/decision-claims.DecisionBinding', () =>
  z.strictObject({
    workflowId: z.string().min(1),
    callId: z.string().min(1),
    /** `argsHash` of the pending call's arguments: the ones the approver saw. */
    argsHash: z.string().min(1),
    type: DecisionType,
    /** decisionContentHash of the decision: the edit's arguments and target, the message, `always`. */
    contentHash: z.string().min(1),
  }),
);
export type DecisionBinding = z.infer<typeof DecisionBinding>;

/** Registered claims (RFC 7519 §4.1) as decision tokens and OpenID Connect ID tokens both carry them. */
export const RegisteredClaims = builtOnce('signing/decision-claims.RegisteredClaims', () =>
  z.looseObject({
    iss: z.string().min(1),
    sub: z.string().min(1).max(MAX_SUBJECT_LENGTH),
    aud: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    iat: NumericDate,
    exp: NumericDate,
    nbf: NumericDate.optional(),
    jti: z.string().min(1).max(200).optional(),
  }),
);

export const Groups = builtOnce('signing/decision-claims.Groups', () => z.array(z.string().min(1).max(MAX_SUBJECT_LENGTH)).max(MAX_GROUPS));

/** The claims of a decision token this project's signer (the API, `hitl sign`) mints. */
export const DecisionClaims = builtOnce('signing/decision-claims.DecisionClaims', () =>
  RegisteredClaims.extend({
    jti: z.string().min(1).max(200),
    groups: Groups.default([]),
    decision: DecisionBinding,
  }),
);
export type DecisionClaims = z.infer<typeof DecisionClaims>;

/**
 * Hash of what a decision does beyond its type: the edit's new arguments and target tool, the message, `always`.
 * Signing it means a token for "edit call C" cannot be paired with other arguments than the approver chose.
 */
export function decisionContentHash(decision: Pick<Decision, 'args' | 'name' | 'message' | 'always'>): string {
  const { args, name, message, always } = decision;
  // `always: false` and `message: ""` say what leaving them out says: one hash for both spellings.
  return `sha256:${canonicalSha256({ args, name, message: message || undefined, always: always || undefined })}`;
}

/** The binding of `decision` (which must name its call) to a pending call whose arguments hash to `argsHash`. */
export function decisionBinding(workflowId: string, argsHash: string, decision: Decision & { id: string }): DecisionBinding {
  return { workflowId, callId: decision.id, argsHash, type: decision.type, contentHash: decisionContentHash(decision) };
}

/**
 * The OpenID Connect `nonce` that binds an ID token to one decision: the client puts it in the authentication
 * request, the provider signs it into the ID token, the workflow recomputes it. Short enough for any provider.
 */
export function decisionNonce(binding: DecisionBinding): string {
  return `hitl1.${canonicalSha256(binding)}`;
}
