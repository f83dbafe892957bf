/**
 * Mints decision tokens: what the API signs for each decision it forwards, and what `hitl sign` prints for an
 * operator who decides with the `temporal` CLI. Runs in the signer's process, never in a workflow.
 */
import { randomBytes } from '@noble/hashes/utils.js';
import type { Decision } from '../schemas/decision.js';
import { DECISION_TOKEN_TYPE, DecisionClaims, decisionBinding, type DecisionBinding } from './decision-claims.js';
import { encodeJsonSegment, encodeSegment, signingInput } from './encoding.js';
import type { SigningKey } from './signing-key.js';

/** Who signs, and for whom: the `iss` and `aud` the run's DecisionTrust names. */
export interface DecisionSigner {
  key: SigningKey;
  /** @default "hitl" (HITL_TOKEN_ISSUER) */
  issuer: string;
  /** @default "hitl-decisions" (HITL_TOKEN_AUDIENCE) */
  audience: string;
}

export interface DecisionTokenRequest {
  binding: DecisionBinding;
  /** The authenticated approver: `sub`. */
  approver: string;
  groups?: string[];
  /** Epoch milliseconds; the token is issued now. */
  now: number;
  /** Seconds until it expires; keep it short (the API: a minute or two; `hitl sign`: minutes). */
  ttlSeconds: number;
  /** @default 16 random bytes, base64url */
  jti?: string;
}

/** A compact JWS over `payload`, with the key's `alg` and `kid` and the given `typ`. */
export function signCompactJws(payload: object, key: SigningKey, typ: string): string {
  const header = encodeJsonSegment({ alg: key.alg, kid: key.kid, typ });
  const body = encodeJsonSegment(payload);
  return `${header}.${body}.${encodeSegment(key.sign(signingInput(header, body)))}`;
}

/** The JWT frame of a token `signer` issues to `subject` at `now` (epoch ms), good for `ttlSeconds`. */
export function tokenFrame(signer: DecisionSigner, subject: string, now: number, ttlSeconds: number, jti?: string) {
  const iat = Math.floor(now / 1000);
  const id = jti ?? encodeSegment(randomBytes(16));
  return { iss: signer.issuer, aud: signer.audience, sub: subject, iat, exp: iat + Math.ceil(ttlSeconds), jti: id };
}

/** A decision token for exactly `request.binding`; the claims are validated with the schema the verifier uses. */
export function signDecisionToken(signer: DecisionSigner, request: DecisionTokenRequest): string {
  const claims = DecisionClaims.parse({
    ...tokenFrame(signer, request.approver, request.now, request.ttlSeconds, request.jti),
    groups: request.groups ?? [],
    decision: request.binding,
  });
  return signCompactJws(claims, signer.key, DECISION_TOKEN_TYPE);
}

/** How long a token the API or the CLI signs for a decision it sends at once stays good. */
export const SEND_NOW_TTL_SECONDS = 120;

/**
 * `decision` with a token for it, signed in the name of `approver` (who the API authenticated, or the operator the
 * CLI acts for). `workflowId` is the top-level run and `decision.id` the call as that run shows it.
 */
export function signedDecision(
  signer: DecisionSigner,
  decision: Decision & { id: string },
  target: { workflowId: string; argsHash: string; approver: string; groups?: string[]; now: number },
): Decision {
  const binding = decisionBinding(target.workflowId, target.argsHash, decision);
  const token = signDecisionToken(signer, {
    binding,
    approver: target.approver,
    groups: target.groups ?? [],
    now: target.now,
    ttlSeconds: SEND_NOW_TTL_SECONDS,
  });
  return { ...decision, token };
}
