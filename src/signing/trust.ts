/**
 * Whom a run trusts to sign decisions: one or more issuers, each with its public key set (JWKS), audience and
 * algorithms. Plain JSON, validated once where it is read and recorded in the run's history when the run starts,
 * so a paused run keeps verifying with the keys it started with, whatever rotation happens meanwhile.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { Jwks } from './jwk.js';
import { VerifyAlgorithm } from './verify-signature.js';

/**
 * `hitl`: tokens this project mints (the API, `hitl sign`), with the decision in their claims.
 * `oidc`: ID tokens of an external OpenID Connect provider, bound to the decision by their `nonce`.
 */
export const ISSUER_KINDS = ['hitl', 'oidc'] as const;

const HITL_ALGORITHMS: VerifyAlgorithm[] = ['EdDSA', 'Ed25519', 'ES256'];
const OIDC_ALGORITHMS: VerifyAlgorithm[] = ['EdDSA', 'Ed25519', 'ES256', 'RS256'];

export const TrustedIssuer = builtOnce('signing/trust.TrustedIssuer', () =>
  z
    .strictObject({
      kind: z.enum(ISSUER_KINDS),
      /** Must equal the token's `iss` exactly (for a provider: its issuer URL, as in its discovery document). */
      issuer: z.string().min(1),
      /** Must be (one of) the token's `aud`: for a provider, the client id the inbox signs in with. */
      audience: z.string().min(1),
      jwks: Jwks,
      /** @default EdDSA, Ed25519, ES256 for `hitl`; RS256 besides for `oidc` */
      algorithms: z.array(VerifyAlgorithm).min(1).optional(),
      /** `oidc`: where the groups are, a dotted path (`groups`, `realm_access.roles`). @default "groups" */
      groupsClaim: z.string().min(1).default('groups'),
      /** Longest `exp - iat` accepted, in seconds. @default 3600 */
      maxLifetimeSeconds: z.int().positive().max(86_400).default(3600),
    })
    .superRefine((issuer, ctx) => {
      if (issuer.kind === 'hitl' && issuer.algorithms?.includes('RS256')) {
        ctx.addIssue({ code: 'custom', path: ['algorithms'], message: 'hitl tokens are signed with EdDSA or ES256, never RS256' });
      }
    }),
);

export const DecisionTrust = builtOnce('signing/trust.DecisionTrust', () =>
  z
    .strictObject({
      issuers: z.array(TrustedIssuer).min(1).max(10),
      /** Leeway for clocks that disagree (the signer's and the workflow task's), in seconds. @default 60 */
      clockSkewSeconds: z.int().min(0).max(300).default(60),
    })
    .superRefine(({ issuers }, ctx) => {
      const names = issuers.map((i) => i.issuer);
      const twice = names.find((name, i) => names.indexOf(name) !== i);
      if (twice) ctx.addIssue({ code: 'custom', path: ['issuers'], message: `issuer ${twice} is listed twice` });
    }),
);

export type TrustedIssuer = z.infer<typeof TrustedIssuer>;
export type DecisionTrust = z.infer<typeof DecisionTrust>;
/** What a caller writes: defaults may be left out. */
export type DecisionTrustInput = z.input<typeof DecisionTrust>;

export function algorithmsOf(issuer: TrustedIssuer): readonly VerifyAlgorithm[] {
  return issuer.algorithms ?? (issuer.kind === 'hitl' ? HITL_ALGORITHMS : OIDC_ALGORITHMS);
}
