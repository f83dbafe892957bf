/**
 * Public keys as JSON Web Keys (RFC 7517) and key sets (JWKS): the shapes a run trusts, validated down to the key
 * material (a point on the curve, an RSA modulus of at least 2048 bits). Pure JavaScript, safe in the workflow
 * sandbox: the key set is data recorded in the run's history, and verification reads it from there.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import type { PublicKey as RsaPublicKey } from 'micro-rsa-dsa-dh/rsa.js';
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { decodeSegment, segmentToBigInt } from './encoding.js';

/** The smallest RSA modulus accepted (NIST SP 800-131A). */
export const MIN_RSA_BITS = 2048;
/** Keys in one set: room for rotation (current, next, retiring) and a provider's handful. */
export const MAX_KEYS_PER_SET = 50;

const base64url = builtOnce('signing/jwk.base64url', () => z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be unpadded base64url'));

/** Members every key shares. `alg`, when a key names one, must be the key type's own (see verify-signature.ts). */
const keyMembers = builtOnce('signing/jwk.keyMembers', () => ({
  kid: z.string().min(1).max(200),
  use: z.literal('sig').optional(),
  alg: z.string().optional(),
  key_ops: z.array(z.string()).optional(),
}));

// Loose: providers add members (x5c, x5t, n's certificate chain); they are kept and ignored.
export const Ed25519PublicJwk = builtOnce('signing/jwk.Ed25519PublicJwk', () =>
  z.looseObject({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: base64url, ...keyMembers }),
);
export const P256PublicJwk = builtOnce('signing/jwk.P256PublicJwk', () =>
  z.looseObject({ kty: z.literal('EC'), crv: z.literal('P-256'), x: base64url, y: base64url, ...keyMembers }),
);
export const RsaPublicJwk = builtOnce('signing/jwk.RsaPublicJwk', () =>
  z.looseObject({ kty: z.literal('RSA'), n: base64url, e: base64url, ...keyMembers }),
);

/** Members that belong to private keys: a trusted key set holding one is a leaked secret, not a public key. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export const PublicJwk = builtOnce('signing/jwk.PublicJwk', () =>
  z.discriminatedUnion('kty', [Ed25519PublicJwk, P256PublicJwk, RsaPublicJwk]).superRefine((jwk, ctx) => {
    const secret = PRIVATE_MEMBERS.find((member) => member in jwk);
    if (secret) ctx.addIssue({ code: 'custom', message: `key ${jwk.kid} holds private member "${secret}": publish public keys only` });
    const problem = keyMaterialProblem(jwk);
    if (problem) ctx.addIssue({ code: 'custom', message: `key ${jwk.kid}: ${problem}` });
  }),
);

export const Jwks = builtOnce('signing/jwk.Jwks', () =>
  z.object({ keys: z.array(PublicJwk).min(1).max(MAX_KEYS_PER_SET) }).superRefine(({ keys }, ctx) => {
    const seen = new Set<string>();
    for (const { kid } of keys) {
      if (seen.has(kid)) ctx.addIssue({ code: 'custom', message: `key id ${kid} appears twice; key ids must be unique` });
      seen.add(kid);
    }
  }),
);

export type PublicJwk = z.infer<typeof PublicJwk>;
export type Jwks = z.infer<typeof Jwks>;

/** The 32-byte Ed25519 public key, or undefined when `x` is not one. */
export function ed25519PublicKey(jwk: z.infer<typeof Ed25519PublicJwk>): Uint8Array | undefined {
  const x = decodeSegment(jwk.x);
  return x && x.length === 32 && ed25519.utils.isValidPublicKey(x, false) ? x : undefined;
}

/** The uncompressed P-256 point (0x04 ‖ x ‖ y), or undefined when it is not on the curve. */
export function p256PublicKey(jwk: z.infer<typeof P256PublicJwk>): Uint8Array | undefined {
  const x = decodeSegment(jwk.x);
  const y = decodeSegment(jwk.y);
  if (!x || !y || x.length !== 32 || y.length !== 32) return undefined;
  const point = new Uint8Array(65);
  point[0] = 4;
  point.set(x, 1);
  point.set(y, 33);
  return p256.utils.isValidPublicKey(point, false) ? point : undefined;
}

/** The RSA modulus and exponent, or undefined below MIN_RSA_BITS or with an even or tiny exponent. */
export function rsaPublicKey(jwk: z.infer<typeof RsaPublicJwk>): RsaPublicKey | undefined {
  const n = segmentToBigInt(jwk.n);
  const e = segmentToBigInt(jwk.e);
  if (n === undefined || e === undefined || n.toString(2).length < MIN_RSA_BITS || e < 3n || e % 2n === 0n) return undefined;
  return { n, e };
}

function keyMaterialProblem(jwk: { kty: string }): string | undefined {
  switch (jwk.kty) {
    case 'OKP':
      return ed25519PublicKey(jwk as z.infer<typeof Ed25519PublicJwk>) ? undefined : 'x is not an Ed25519 public key';
    case 'EC':
      return p256PublicKey(jwk as z.infer<typeof P256PublicJwk>) ? undefined : 'x, y are not a point on P-256';
    default:
      return rsaPublicKey(jwk as z.infer<typeof RsaPublicJwk>)
        ? undefined
        : `not an RSA public key of at least ${MIN_RSA_BITS} bits with an odd exponent`;
  }
}
