/**
 * Compact JWS (RFC 7515), read and checked in two steps: `readCompactJws` splits and decodes without trusting
 * anything (so the caller can find the issuer's keys), `checkSignature` verifies it against those keys. Pure and
 * deterministic, for the workflow sandbox; signing lives in sign-decision.ts, outside it.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { decodeJsonSegment, decodeSegment, signingInput } from './encoding.js';
import type { PublicJwk } from './jwk.js';
import { refuse, type TokenRefusal } from './token-refusal.js';
import { isVerifyAlgorithm, keyFitsAlgorithm, verifySignature, type VerifyAlgorithm } from './verify-signature.js';

/**
 * Longest token read: an OpenID Connect token with many groups stays well below; anything longer is refused before
 * decoding, so a hostile decision cannot make the workflow task parse megabytes.
 */
export const MAX_TOKEN_LENGTH = 16_384;

/** `crit` is refused by omission (the looseObject keeps it, readCompactJws rejects it): no extension is understood. */
export const JwsHeader = builtOnce('signing/jws.JwsHeader', () =>
  z.looseObject({
    alg: z.string().min(1),
    kid: z.string().min(1).max(200),
    typ: z.string().optional(),
  }),
);
export type JwsHeader = z.infer<typeof JwsHeader>;

export interface CompactJws {
  header: JwsHeader;
  /** Not yet verified: read `iss` from it to pick the keys, trust nothing else before checkSignature. */
  payload: Record<string, unknown>;
  /** The three segments as received; the signature covers the first two exactly. */
  segments: [header: string, payload: string, signature: string];
}

export function readCompactJws(token: string): { ok: true; jws: CompactJws } | TokenRefusal {
  if (token.length > MAX_TOKEN_LENGTH) {
    return refuse('oversized', `The token is ${token.length} characters long; at most ${MAX_TOKEN_LENGTH} are read.`);
  }
  const segments = token.split('.');
  if (segments.length !== 3) return refuse('malformed', 'A compact JWS has three dot-separated segments.');
  const [headerSegment, payloadSegment, signatureSegment] = segments as [string, string, string];
  const rawHeader = decodeJsonSegment(headerSegment);
  const payload = decodeJsonSegment(payloadSegment);
  if (!rawHeader || !payload) return refuse('malformed', 'The header and payload must be base64url-encoded JSON objects.');
  if ('crit' in rawHeader) return refuse('malformed', 'The header lists critical extensions (crit); none is supported.');
  const header = JwsHeader.safeParse(rawHeader);
  if (!header.success) return refuse('malformed', 'The header must name its algorithm (alg) and key id (kid).');
  return { ok: true, jws: { header: header.data, payload, segments: [headerSegment, payloadSegment, signatureSegment] } };
}

/**
 * Verifies the signature with the key named by `kid` among `keys`, under an algorithm in `allowed`. The key's own
 * type decides the check, never the header alone.
 */
export function checkSignature(
  jws: CompactJws,
  keys: readonly PublicJwk[],
  allowed: readonly VerifyAlgorithm[],
): { ok: true; key: PublicJwk; alg: VerifyAlgorithm } | TokenRefusal {
  const { alg, kid } = jws.header;
  if (!isVerifyAlgorithm(alg) || !allowed.includes(alg)) {
    return refuse('alg_not_allowed', `Algorithm ${JSON.stringify(alg)} is not accepted here; allowed: ${allowed.join(', ')}.`);
  }
  const key = keys.find((k) => k.kid === kid);
  if (!key) return refuse('unknown_key', `No trusted key has id ${JSON.stringify(kid)} (unknown, or rotated out).`);
  if (!keyFitsAlgorithm(key, alg)) return refuse('unknown_key', `Key ${kid} is a ${key.kty} key and cannot verify ${alg}.`);
  const signature = decodeSegment(jws.segments[2]);
  if (!signature || !verifySignature(alg, key, signingInput(jws.segments[0], jws.segments[1]), signature)) {
    return refuse('bad_signature', `The signature does not verify with key ${kid}.`);
  }
  return { ok: true, key, alg };
}
