/** Keys, signers, a pending call's binding and a run's trust, for the signed-decision tests. */
import { argsHash } from '../../src/policy/args-hash.js';
import { decisionBinding, type DecisionBinding } from '../../src/signing/decision-claims.js';
import { encodeJsonSegment, encodeSegment, signingInput } from '../../src/signing/encoding.js';
import type { PublicJwk } from '../../src/signing/jwk.js';
import { signDecisionToken, type DecisionSigner, type DecisionTokenRequest } from '../../src/signing/sign-decision.js';
import { generateSigningKey, signingKeyFromJwk, type PrivateJwk, type SigningAlgorithm } from '../../src/signing/signing-key.js';
import { DecisionTrust, type DecisionTrustInput } from '../../src/signing/trust.js';

/** The workflow's clock in these tests: 2026-07-01T12:00:00Z. */
export const NOW = Date.UTC(2026, 6, 1, 12, 0, 0);
export const ISSUER = 'hitl';
export const AUDIENCE = 'hitl-decisions';

/** A signer with a new key; `privateJwk` is what HITL_SIGNING_KEY would hold. */
export function newSigner(
  alg: SigningAlgorithm,
  kid: string,
  issuer = ISSUER,
  audience = AUDIENCE,
): DecisionSigner & { privateJwk: PrivateJwk } {
  const { privateJwk } = generateSigningKey(alg, kid);
  return { key: signingKeyFromJwk(privateJwk), issuer, audience, privateJwk };
}

export function trustOf(keys: PublicJwk[], more: Partial<DecisionTrustInput> = {}): DecisionTrust {
  return DecisionTrust.parse({ issuers: [{ kind: 'hitl', issuer: ISSUER, audience: AUDIENCE, jwks: { keys } }], ...more });
}

/** The pending call the tokens are for: call-1 of wf-1, cancel_order of order 1234, approved. */
export const BINDING: DecisionBinding = decisionBinding('wf-1', argsHash({ orderId: '1234' }), { id: 'call-1', type: 'approve' });

export function token(signer: DecisionSigner, overrides: Partial<DecisionTokenRequest> = {}): string {
  return signDecisionToken(signer, { binding: BINDING, approver: 'alice', groups: ['finance'], now: NOW, ttlSeconds: 300, ...overrides });
}

/** A compact JWS with any header and payload, signed by `sign` (or carrying `signature` as is). */
export function craft(header: object, payload: object, sign: (data: Uint8Array) => Uint8Array): string {
  const h = encodeJsonSegment(header);
  const p = encodeJsonSegment(payload);
  return `${h}.${p}.${encodeSegment(sign(signingInput(h, p)))}`;
}

/** The claims `signDecisionToken` would sign, for crafting variants of them. */
export function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const iat = Math.floor(NOW / 1000);
  return {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'alice',
    groups: ['finance'],
    iat,
    exp: iat + 300,
    jti: 'jti-1',
    decision: BINDING,
    ...overrides,
  };
}
