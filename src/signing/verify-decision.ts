/**
 * Verifies the token a decision carries, deterministically, inside the workflow: the signature with a key the run
 * trusts, then issuer, audience and time (`now` is a parameter, the workflow's clock, never read here), then that
 * the token is for exactly this decision, then that its id was not used before in this run. Returns the verified
 * identity or a refusal with a stable code; never throws on what it is given.
 */
import {
  DECISION_TOKEN_TYPE,
  DecisionClaims,
  Groups,
  MAX_GROUPS,
  RegisteredClaims,
  decisionNonce,
  type DecisionBinding,
} from './decision-claims.js';
import { checkSignature, readCompactJws, type CompactJws } from './jws.js';
import { refuse, type TokenRefusal } from './token-refusal.js';
import { algorithmsOf, type DecisionTrust, type TrustedIssuer } from './trust.js';

/** Who decided, as the token proves it. */
export interface VerifiedDecider {
  /** The token's `sub`. */
  approver: string;
  groups: string[];
  issuer: string;
  /** The key that signed (for the audit log). */
  keyId: string;
  /** `jti`, or for a provider token without one its signature: record it so the token cannot be used twice. */
  tokenId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export type DecisionTokenCheck = { ok: true; decider: VerifiedDecider } | TokenRefusal;

export interface VerifyOptions {
  /** Token ids this run has already accepted (VerifiedDecider.tokenId). */
  usedTokenIds?: ReadonlySet<string>;
}

/**
 * @param token the decision's token (anything: it is validated here)
 * @param binding what the run expects, from decisionBinding(workflowId, pending.argsHash, decision)
 * @param trust the run's recorded DecisionTrust (already parsed)
 * @param now epoch milliseconds: the workflow's clock
 */
export function verifyDecisionToken(
  token: unknown,
  binding: DecisionBinding,
  trust: DecisionTrust,
  now: number,
  options: VerifyOptions = {},
): DecisionTokenCheck {
  if (token === undefined || token === null || token === '') return refuse('unsigned', 'This run requires a signed decision token.');
  if (typeof token !== 'string') return refuse('malformed', 'The token must be a string (a compact JWS).');
  const read = readCompactJws(token);
  if (!read.ok) return read;
  const { jws } = read;

  // The issuer picks the keys; it is only trusted once the signature verifies with one of them.
  const issuer = trust.issuers.find((i) => i.issuer === jws.payload.iss);
  if (!issuer) {
    return refuse('wrong_issuer', `Tokens from ${JSON.stringify(jws.payload.iss)} are not trusted; trusted: ${trustedNames(trust)}.`);
  }
  const signature = checkSignature(jws, issuer.jwks.keys, algorithmsOf(issuer));
  if (!signature.ok) return signature;

  const claims = issuer.kind === 'hitl' ? hitlClaims(jws, binding) : oidcClaims(jws, issuer, binding);
  if (!claims.ok) return claims;
  const { sub, aud, iat, exp, nbf } = claims.registered;
  const frame = checkFrame(issuer, trust.clockSkewSeconds, now, { aud, iat, exp, nbf });
  if (frame) return frame;
  if (options.usedTokenIds?.has(claims.tokenId)) {
    return refuse('replayed', `Token ${claims.tokenId} was already used in this run; sign each decision anew.`);
  }
  return {
    ok: true,
    decider: {
      approver: sub,
      groups: claims.groups,
      issuer: issuer.issuer,
      keyId: signature.key.kid,
      tokenId: claims.tokenId,
      expiresAt: exp * 1000,
    },
  };
}

type Claims = { ok: true; registered: ReturnType<typeof RegisteredClaims.parse>; groups: string[]; tokenId: string } | TokenRefusal;

function hitlClaims(jws: CompactJws, binding: DecisionBinding): Claims {
  if (jws.header.typ !== DECISION_TOKEN_TYPE) {
    return refuse('wrong_token_type', `The token's typ is ${JSON.stringify(jws.header.typ)}, not ${DECISION_TOKEN_TYPE}.`);
  }
  const parsed = DecisionClaims.safeParse(jws.payload);
  if (!parsed.success) return refuse('invalid_claims', `The token's claims are not a decision's: ${parsed.error.issues[0]?.message}.`);
  const signed = parsed.data.decision;
  const mismatch =
    signed.workflowId !== binding.workflowId
      ? refuse('wrong_workflow', `The token is for run ${signed.workflowId}, not ${binding.workflowId}.`)
      : signed.callId !== binding.callId
        ? refuse('wrong_call', `The token is for call ${signed.callId}, not ${binding.callId}.`)
        : signed.argsHash !== binding.argsHash
          ? refuse('args_mismatch', `The token approves arguments ${signed.argsHash}; the call has ${binding.argsHash}.`)
          : signed.type !== binding.type
            ? refuse('wrong_decision_type', `The token is for ${signed.type}, not ${binding.type}.`)
            : signed.contentHash !== binding.contentHash
              ? refuse('content_mismatch', 'The decision (edited arguments, tool, message or always) is not the one signed.')
              : undefined;
  return mismatch ?? { ok: true, registered: parsed.data, groups: parsed.data.groups, tokenId: parsed.data.jti };
}

function oidcClaims(jws: CompactJws, issuer: TrustedIssuer, binding: DecisionBinding): Claims {
  const parsed = RegisteredClaims.safeParse(jws.payload);
  if (!parsed.success) return refuse('invalid_claims', `The provider's token lacks a claim: ${parsed.error.issues[0]?.message}.`);
  const groups = Groups.safeParse(claimAt(jws.payload, issuer.groupsClaim) ?? []);
  if (!groups.success) {
    return refuse('invalid_claims', `Claim ${issuer.groupsClaim} must be a list of at most ${MAX_GROUPS} group names.`);
  }
  if (jws.payload.nonce !== decisionNonce(binding)) {
    return refuse('binding_mismatch', `The token's nonce does not bind this decision (expected ${decisionNonce(binding)}).`);
  }
  return { ok: true, registered: parsed.data, groups: groups.data, tokenId: parsed.data.jti ?? `sig:${jws.segments[2]}` };
}

function checkFrame(
  issuer: TrustedIssuer,
  skew: number,
  now: number,
  { aud, iat, exp, nbf }: { aud: string | string[]; iat: number; exp: number; nbf?: number },
): TokenRefusal | undefined {
  const audiences = typeof aud === 'string' ? [aud] : aud;
  if (!audiences.includes(issuer.audience)) {
    return refuse('wrong_audience', `The token is for ${audiences.join(', ')}, not ${issuer.audience}.`);
  }
  const seconds = Math.floor(now / 1000);
  if (seconds >= exp + skew) return refuse('expired', `The token expired at ${isoSeconds(exp)}.`);
  const notBefore = Math.max(iat, nbf ?? 0);
  if (notBefore > seconds + skew) return refuse('not_yet_valid', `The token is not valid before ${isoSeconds(notBefore)}.`);
  if (exp - iat > issuer.maxLifetimeSeconds) {
    return refuse('lifetime_too_long', `The token lives ${exp - iat}s; ${issuer.issuer} may grant at most ${issuer.maxLifetimeSeconds}s.`);
  }
  return undefined;
}

/** The value at a dotted path of a claims object (`realm_access.roles`), or undefined. */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function trustedNames(trust: DecisionTrust): string {
  return trust.issuers.map((i) => i.issuer).join(', ');
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
