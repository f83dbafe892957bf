/**
 * Signed decisions from the process environment: the signer (the API, `hitl sign`) and the trust a run records when
 * it starts. Reads files; never imported by workflow code. Variables (see src/config.ts):
 *
 * - HITL_SIGNING_KEY / HITL_SIGNING_KEY_FILE: the signer's private JWK.
 * - HITL_TOKEN_ISSUER, HITL_TOKEN_AUDIENCE: `iss` and `aud` of the tokens it signs.
 * - HITL_TRUSTED_JWKS / HITL_TRUSTED_JWKS_FILE: the public keys trusted for that issuer (default: the signing key's).
 * - HITL_OIDC_ISSUER, HITL_OIDC_AUDIENCE, HITL_OIDC_JWKS / HITL_OIDC_JWKS_FILE, HITL_OIDC_GROUPS_CLAIM: a provider.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { EnvConfig } from '../config.js';
import { SigningConfigError } from '../errors.js';
import { Jwks, PublicJwk } from './jwk.js';
import type { DecisionSigner } from './sign-decision.js';
import { signingKeyFromJwk, type SigningKey } from './signing-key.js';
import { DecisionTrust, type TrustedIssuer } from './trust.js';

/** The signing key from HITL_SIGNING_KEY(_FILE), or undefined when neither is set. */
export function signingKeyFromConfig(config: EnvConfig): SigningKey | undefined {
  const raw = valueOrFile(config.HITL_SIGNING_KEY, config.HITL_SIGNING_KEY_FILE);
  return raw === undefined ? undefined : signingKeyFromJwk(raw);
}

export function decisionSignerFromConfig(config: EnvConfig): DecisionSigner | undefined {
  const key = signingKeyFromConfig(config);
  return key && { key, issuer: config.HITL_TOKEN_ISSUER, audience: config.HITL_TOKEN_AUDIENCE };
}

/**
 * The issuers a new run trusts: this project's (its trusted JWKS, or the signing key's public half) and the OpenID
 * Connect provider when configured. Undefined when nothing is configured. Throws SigningConfigError on bad input.
 */
export function decisionTrustFromConfig(config: EnvConfig): DecisionTrust | undefined {
  const issuers: z.input<typeof DecisionTrust>['issuers'] = [];
  const trusted = valueOrFile(config.HITL_TRUSTED_JWKS, config.HITL_TRUSTED_JWKS_FILE);
  const ownKeys = trusted !== undefined ? loadJwks(trusted, 'HITL_TRUSTED_JWKS') : ownPublicKey(config);
  const signing = trusted !== undefined ? signingKeyFromConfig(config) : undefined;
  if (signing && ownKeys && !trusts(ownKeys, signing)) {
    // The runs this process starts would refuse every decision it signs, one by one, at decision time.
    throw new SigningConfigError(
      `HITL_SIGNING_KEY (key id ${signing.kid}) is not in HITL_TRUSTED_JWKS, so runs would refuse every decision it signs. During a rotation, trust the old key and the new one.`,
    );
  }
  if (ownKeys) issuers.push({ kind: 'hitl', issuer: config.HITL_TOKEN_ISSUER, audience: config.HITL_TOKEN_AUDIENCE, jwks: ownKeys });
  const providerKeys = valueOrFile(config.HITL_OIDC_JWKS, config.HITL_OIDC_JWKS_FILE);
  if (config.HITL_OIDC_ISSUER || providerKeys !== undefined) {
    if (!config.HITL_OIDC_ISSUER || !config.HITL_OIDC_AUDIENCE || providerKeys === undefined) {
      throw new SigningConfigError('An OpenID Connect provider needs HITL_OIDC_ISSUER, HITL_OIDC_AUDIENCE and HITL_OIDC_JWKS(_FILE).');
    }
    issuers.push({
      kind: 'oidc',
      issuer: config.HITL_OIDC_ISSUER,
      audience: config.HITL_OIDC_AUDIENCE,
      jwks: loadJwks(providerKeys, 'HITL_OIDC_JWKS', { skipUnsupported: true }),
      groupsClaim: config.HITL_OIDC_GROUPS_CLAIM,
    } satisfies z.input<typeof TrustedIssuer>);
  }
  if (issuers.length === 0) return undefined;
  const parsed = DecisionTrust.safeParse({ issuers });
  if (!parsed.success) throw new SigningConfigError(`The decision trust is not valid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * A JWKS from JSON text or a parsed object; throws SigningConfigError naming `what`. With `skipUnsupported` (a
 * provider's set), keys that are not signing keys of a supported type are left out rather than refused: providers
 * publish encryption keys and other curves beside the ones they sign ID tokens with.
 */
export function loadJwks(input: unknown, what: string, options: { skipUnsupported?: boolean } = {}): Jwks {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new SigningConfigError(`${what} is not JSON: expected a JWKS, {"keys": [...]}.`);
    }
  }
  if (options.skipUnsupported && typeof value === 'object' && value !== null && Array.isArray((value as { keys?: unknown }).keys)) {
    const keys = (value as { keys: unknown[] }).keys.filter((key) => PublicJwk.safeParse(key).success);
    value = { ...value, keys };
  }
  const parsed = Jwks.safeParse(value);
  if (!parsed.success) throw new SigningConfigError(`${what} is not a usable JWKS: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Whether `jwks` holds `key`'s public half under its key id. */
function trusts(jwks: Jwks, key: SigningKey): boolean {
  const own = key.publicJwk as Record<string, unknown>;
  return jwks.keys.some(
    (k) => k.kid === key.kid && ['kty', 'crv', 'x', 'y', 'n', 'e'].every((f) => (k as Record<string, unknown>)[f] === own[f]),
  );
}

function ownPublicKey(config: EnvConfig): Jwks | undefined {
  const key = signingKeyFromConfig(config);
  return key && { keys: [key.publicJwk] };
}

function valueOrFile(value: string | undefined, file: string | undefined): string | undefined {
  if (file === undefined) return value;
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new SigningConfigError(`Cannot read ${file}: ${(err as Error).message}`);
  }
}
