/**
 * Verifies a token bound to one thing a run is asked to do (a decision, its start), deterministically, inside the
 * workflow: the signature with a key the run trusts, then issuer, audience and time (`now` is a parameter, the
 * workflow's clock, never read here), then that the token is bound to exactly what the run expects, then that its
 * id was not used before in this run. Returns the verified identity or a refusal with a stable code; never throws on
 * what it is given. verify-decision.ts and verify-request.ts say what each kind is bound to.
 */
import { truncateChars } from '../bounds/truncate.js';
import { Groups, MAX_GROUPS, RegisteredClaims } from './decision-claims.js';
import { checkSignature, readCompactJws, type CompactJws } from './jws.js';
import { refuse, type TokenRefusal } from './token-refusal.js';
import { algorithmsOf, type DecisionTrust, type TrustedIssuer } from './trust.js';

/** Who signed, as the token proves it. */
export interface VerifiedIdentity {
  /** The token's `sub`. */
  subject: string;
  groups: string[];
  issuer: string;
  /** The key that signed (for the audit log). */
  keyId: string;
  /** `jti`, or for a provider token without one its signature: record it so the token cannot be used twice. */
  tokenId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export type IdentityCheck = { ok: true; identity: VerifiedIdentity } | TokenRefusal;

/** A token's claims once read: the registered ones, the groups, and the id that keeps it from being used twice. */
export type ReadClaims = { ok: true; registered: RegisteredClaims; groups: string[]; tokenId: string } | TokenRefusal;
type RegisteredClaims = ReturnType<typeof RegisteredClaims.parse>;

/** A kind of token: what this project's tokens of it carry, and how a provider's ID token is bound instead. */
export interface BoundTokenKind<B> {
  /** What the token is for, in words: "decision", "start". */
  what: string;
  /** What a run that requires a token and gets none is told. */
  unsigned: string;
  /** The JWS `typ` of this project's tokens of the kind (RFC 8725 §3.11): a token minted for another never passes. */
  type: string;
  /** This project's token: its claims, or a refusal saying how it is bound to something other than `expected`. */
  hitlClaims(payload: Record<string, unknown>, expected: B): ReadClaims;
  /** The OpenID Connect `nonce` a provider's ID token must carry to be bound to `expected`. */
  nonce(expected: B): string;
}

export interface VerifyOptions {
  /** Token ids this run has already accepted (VerifiedIdentity.tokenId). */
  usedTokenIds?: ReadonlySet<string>;
}

/**
 * @param token anything: it is validated here
 * @param expected what the run expects the token to be bound to
 * @param trust the run's recorded DecisionTrust (already parsed)
 * @param now epoch milliseconds: the workflow's clock
 */
export function verifyBoundToken<B>(
  token: unknown,
  kind: BoundTokenKind<B>,
  expected: B,
  trust: DecisionTrust,
  now: number,
  options: VerifyOptions = {},
): IdentityCheck {
  if (token === undefined || token === null || token === '') return refuse('unsigned', kind.unsigned);
  if (typeof token !== 'string') return refuse('malformed', 'The token must be a string (a compact JWS).');
  const read = readCompactJws(token);
  if (!read.ok) return read;
  const { jws } = read;

  // The issuer picks the keys; it is only trusted once the signature verifies with one of them.
  const issuer = trust.issuers.find((i) => i.issuer === jws.payload.iss);
  if (!issuer) {
    // Shown only as a string: an unsigned payload's `iss` may be anything, and one nested thousands deep overflowed
    // JSON.stringify in the workflow that checked a run's request token, failing its first task on every retry.
    const iss = jws.payload.iss;
    const tokens = typeof iss === 'string' ? `Tokens from ${JSON.stringify(truncateChars(iss, 200))}` : 'Tokens without a string issuer';
    return refuse('wrong_issuer', `${tokens} are not trusted; trusted: ${trustedNames(trust)}.`);
  }
  const signature = checkSignature(jws, issuer.jwks.keys, algorithmsOf(issuer));
  if (!signature.ok) return signature;

  const claims = issuer.kind === 'hitl' ? hitlClaims(jws, kind, expected) : oidcClaims(jws, issuer, kind.nonce(expected), kind.what);
  if (!claims.ok) return claims;
  const { sub, aud, iat, exp, nbf } = claims.registered;
  const frame = checkFrame(issuer, trust.clockSkewSeconds, now, { aud, iat, exp, nbf });
  if (frame) return frame;
  if (options.usedTokenIds?.has(claims.tokenId)) {
    return refuse('replayed', `Token ${claims.tokenId} was already used in this run; sign each decision anew.`);
  }
  return {
    ok: true,
    identity: {
      subject: sub,
      groups: claims.groups,
      issuer: issuer.issuer,
      keyId: signature.key.kid,
      tokenId: claims.tokenId,
      expiresAt: exp * 1000,
    },
  };
}

function hitlClaims<B>(jws: CompactJws, kind: BoundTokenKind<B>, expected: B): ReadClaims {
  if (jws.header.typ !== kind.type) {
    return refuse('wrong_token_type', `The token's typ is ${JSON.stringify(jws.header.typ)}, not ${kind.type}.`);
  }
  return kind.hitlClaims(jws.payload, expected);
}

function oidcClaims(jws: CompactJws, issuer: TrustedIssuer, nonce: string, what: string): ReadClaims {
  const parsed = RegisteredClaims.safeParse(jws.payload);
  if (!parsed.success) return refuse('invalid_claims', `The provider's token lacks a claim: ${parsed.error.issues[0]?.message}.`);
  const groups = Groups.safeParse(claimAt(jws.payload, issuer.groupsClaim) ?? []);
  if (!groups.success) {
    return refuse('invalid_claims', `Claim ${issuer.groupsClaim} must be a list of at most ${MAX_GROUPS} group names.`);
  }
  if (jws.payload.nonce !== nonce) {
    return refuse('binding_mismatch', `The token's nonce does not bind this ${what} (expected ${nonce}).`);
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
