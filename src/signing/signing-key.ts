/**
 * The private key a signer (the API process, `hitl sign`) holds, as a JWK with a key id, and its public half for
 * the trusted key set. Ed25519 (`EdDSA`) or P-256 (`ES256`), over @noble/curves. Never imported by workflow code:
 * key generation draws randomness.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { SigningConfigError } from '../errors.js';
import { decodeSegment, encodeSegment } from './encoding.js';
import { PublicJwk } from './jwk.js';

export const SIGNING_ALGORITHMS = ['EdDSA', 'ES256'] as const;
export const SigningAlgorithm = z.enum(SIGNING_ALGORITHMS);
export type SigningAlgorithm = z.infer<typeof SigningAlgorithm>;

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be unpadded base64url');
const privateMembers = { kid: z.string().min(1).max(200), d: base64url, use: z.literal('sig').optional() };

export const PrivateJwk = z.discriminatedUnion('kty', [
  z.strictObject({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: base64url, alg: z.literal('EdDSA').optional(), ...privateMembers }),
  z.strictObject({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: base64url,
    y: base64url,
    alg: z.literal('ES256').optional(),
    ...privateMembers,
  }),
]);
export type PrivateJwk = z.infer<typeof PrivateJwk>;

/** A key ready to sign: its id, algorithm, public JWK (for the JWKS) and the signing function. */
export interface SigningKey {
  kid: string;
  alg: SigningAlgorithm;
  publicJwk: PublicJwk;
  sign(data: Uint8Array): Uint8Array;
}

/**
 * A new key pair. The key id defaults to the public key's RFC 7638 thumbprint, so it is stable and unique without
 * anyone choosing names; give `kid` to name keys by date instead (`2026-07`), which reads better during rotation.
 */
export function generateSigningKey(alg: SigningAlgorithm = 'EdDSA', kid?: string): { privateJwk: PrivateJwk; publicJwk: PublicJwk } {
  const kty = alg === 'EdDSA' ? 'OKP' : 'EC';
  const secret = kty === 'OKP' ? ed25519.utils.randomSecretKey() : p256.utils.randomSecretKey();
  const members = publicMembers(kty, secret);
  const privateJwk = PrivateJwk.parse({ ...members, d: encodeSegment(secret), kid: kid ?? jwkThumbprint(members), alg, use: 'sig' });
  return { privateJwk, publicJwk: publicJwkOf(privateJwk) };
}

/** The public half of a private JWK, as it goes into the trusted key set. */
export function publicJwkOf(jwk: PrivateJwk): PublicJwk {
  const { d: _secret, ...rest } = jwk;
  return PublicJwk.parse({ ...rest, alg: jwk.kty === 'OKP' ? 'EdDSA' : 'ES256', use: 'sig' });
}

/** Reads a private JWK (JSON text or a parsed object); throws SigningConfigError when it is not a usable key. */
export function signingKeyFromJwk(input: unknown): SigningKey {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new SigningConfigError('The signing key is not JSON: expected a private JWK (see `hitl keygen`).');
    }
  }
  const parsed = PrivateJwk.safeParse(value);
  if (!parsed.success) {
    throw new SigningConfigError(`The signing key is not an Ed25519 or P-256 private JWK: ${z.prettifyError(parsed.error)}`);
  }
  const jwk = parsed.data;
  const secret = decodeSegment(jwk.d);
  if (!secret || JSON.stringify(derivedMembers(jwk.kty, secret)) !== JSON.stringify(publicMembersOf(jwk))) {
    throw new SigningConfigError(`Signing key ${jwk.kid}: d is not the private key of the public members.`);
  }
  const alg: SigningAlgorithm = jwk.kty === 'OKP' ? 'EdDSA' : 'ES256';
  return {
    kid: jwk.kid,
    alg,
    publicJwk: publicJwkOf(jwk),
    // ES256 in JWS is r ‖ s, noble's default (compact) format; noble hashes the message with SHA-256 itself.
    sign: (data) => (alg === 'EdDSA' ? ed25519.sign(data, secret) : p256.sign(data, secret)),
  };
}

type PublicMembers = { kty: 'OKP'; crv: 'Ed25519'; x: string } | { kty: 'EC'; crv: 'P-256'; x: string; y: string };

function publicMembers(kty: 'OKP' | 'EC', secret: Uint8Array): PublicMembers {
  if (kty === 'OKP') return { kty, crv: 'Ed25519', x: encodeSegment(ed25519.getPublicKey(secret)) };
  const point = p256.getPublicKey(secret, false);
  return { kty, crv: 'P-256', x: encodeSegment(point.subarray(1, 33)), y: encodeSegment(point.subarray(33)) };
}

/** The public members `secret` yields, or undefined when it is no valid secret key. */
function derivedMembers(kty: 'OKP' | 'EC', secret: Uint8Array): PublicMembers | undefined {
  try {
    return secret.length === 32 ? publicMembers(kty, secret) : undefined;
  } catch {
    return undefined;
  }
}

function publicMembersOf(jwk: PrivateJwk): PublicMembers {
  return jwk.kty === 'OKP' ? { kty: 'OKP', crv: 'Ed25519', x: jwk.x } : { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}

/** RFC 7638 thumbprint: SHA-256 over the required members in lexicographic order, base64url. */
export function jwkThumbprint(jwk: PublicMembers): string {
  const required = jwk.kty === 'OKP' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
  return encodeSegment(sha256(utf8ToBytes(JSON.stringify(required))));
}
