/**
 * Preloaded once per worker (PRELOADED_MODULES): the curves and RSA of the signature checks
 * (src/signing/verify-signature.ts), shared by every run instead of built in each. Built per run, their field and
 * curve constants cost every run, and every replay of an evicted one, several milliseconds of module evaluation
 * before it can apply any decision, signed or not. They hold no per-run state: their only caches memoize
 * precomputed points, the same for every run, and nothing they export is written after evaluation, so the SDK's
 * freezing of shared modules changes nothing. Imported and exported here, not listed by package: the packages
 * declare no side effects, so the bundler drops a preload that only requires them.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { PKCS1_SHA256 } from 'micro-rsa-dsa-dh/rsa.js';

export const PRELOADED_CRYPTO = { ed25519, p256, PKCS1_SHA256 };
