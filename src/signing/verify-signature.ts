/**
 * Which JWS algorithms a run accepts, and the signature check for each, over @noble/curves (Ed25519, P-256) and
 * micro-rsa-dsa-dh (RSASSA-PKCS1-v1_5, for providers that sign only with RS256). Pure JavaScript and deterministic:
 * it runs in the workflow sandbox. `none` and the HMAC algorithms are never accepted: a public key set cannot
 * verify a shared-secret signature, and treating a public key as an HMAC secret is the classic algorithm confusion.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { PKCS1_SHA256 } from 'micro-rsa-dsa-dh/rsa.js';
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { ed25519PublicKey, p256PublicKey, rsaPublicKey, type PublicJwk } from './jwk.js';

/** `EdDSA` (RFC 8037) and its fully specified name `Ed25519` (RFC 9864) both mean Ed25519. */
export const VERIFY_ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'RS256'] as const;
export const VerifyAlgorithm = builtOnce('signing/verify-signature.VerifyAlgorithm', () => z.enum(VERIFY_ALGORITHMS));
export type VerifyAlgorithm = z.infer<typeof VerifyAlgorithm>;

/** The key type each algorithm needs: a key of another type never verifies, whatever the header claims. */
const KEY_TYPE: Record<VerifyAlgorithm, PublicJwk['kty']> = { EdDSA: 'OKP', Ed25519: 'OKP', ES256: 'EC', RS256: 'RSA' };

export function isVerifyAlgorithm(alg: unknown): alg is VerifyAlgorithm {
  return typeof alg === 'string' && (VERIFY_ALGORITHMS as readonly string[]).includes(alg);
}

/** True when `jwk` may verify `alg`: the key's type fits, and a key that names its algorithm names this one. */
export function keyFitsAlgorithm(jwk: PublicJwk, alg: VerifyAlgorithm): boolean {
  if (jwk.kty !== KEY_TYPE[alg]) return false;
  if (jwk.alg === undefined || jwk.alg === alg) return true;
  return jwk.kty === 'OKP' && (jwk.alg === 'EdDSA' || jwk.alg === 'Ed25519');
}

/**
 * Checks `signature` over `data` with `jwk` under `alg`; false for any mismatch or malformed input, never throws.
 * Ed25519 follows RFC 8032 strictly (no ZIP-215 leniency). ES256 signatures are r ‖ s (64 bytes, RFC 7518 §3.4)
 * and high-S values are accepted, as WebCrypto and most providers produce them.
 */
export function verifySignature(alg: VerifyAlgorithm, jwk: PublicJwk, data: Uint8Array, signature: Uint8Array): boolean {
  if (!keyFitsAlgorithm(jwk, alg)) return false;
  try {
    switch (jwk.kty) {
      case 'OKP': {
        const key = ed25519PublicKey(jwk);
        return !!key && signature.length === 64 && ed25519.verify(signature, data, key, { zip215: false });
      }
      case 'EC': {
        const key = p256PublicKey(jwk);
        return !!key && signature.length === 64 && p256.verify(signature, data, key, { lowS: false });
      }
      case 'RSA': {
        const key = rsaPublicKey(jwk);
        return !!key && PKCS1_SHA256.verify(key, data, signature);
      }
    }
  } catch {
    return false;
  }
}
