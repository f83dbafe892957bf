/**
 * ID tokens of an external OpenID Connect provider, signed here by OpenSSL (node:crypto) as a provider would, and
 * verified by the pure-JavaScript path the workflow runs: RS256, ES256 and EdDSA, the decision bound by `nonce`.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BINDING, NOW } from '../../test/helpers/signing.js';
import { SigningConfigError } from '../errors.js';
import { decisionBinding, decisionNonce } from './decision-claims.js';
import { encodeJsonSegment } from './encoding.js';
import { loadJwks } from './signing-config.js';
import { DecisionTrust } from './trust.js';
import { verifyDecisionToken } from './verify-decision.js';

const PROVIDER = 'https://login.example.com/realms/shop';
const CLIENT_ID = 'hitl-inbox';

/** A key pair as a provider holds it, and its public JWK as its jwks_uri publishes it. */
function providerKey(alg: 'RS256' | 'ES256' | 'EdDSA', kid: string, modulusLength = 2048) {
  const { privateKey, publicKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength })
      : alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  return { alg, kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' } };
}

function idToken(key: { alg: string; kid: string; privateKey: KeyObject }, claims: Record<string, unknown>): string {
  const input = `${encodeJsonSegment({ alg: key.alg, kid: key.kid, typ: 'JWT' })}.${encodeJsonSegment(claims)}`;
  const digest = key.alg === 'EdDSA' ? null : 'sha256';
  const signature = sign(digest, Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

const rsa = providerKey('RS256', 'rsa-1');
const ec = providerKey('ES256', 'ec-1');
const okp = providerKey('EdDSA', 'okp-1');
// A provider's set also holds keys that sign nothing we verify: an encryption key, a secp256k1 key.
const encryption = { ...providerKey('RS256', 'enc-1').jwk, use: 'enc', alg: 'RSA-OAEP' };
const secp256k1 = { ...generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey.export({ format: 'jwk' }), kid: 'k1' };
const providerJwks = loadJwks(JSON.stringify({ keys: [rsa.jwk, encryption, ec.jwk, secp256k1, okp.jwk] }), 'test', {
  skipUnsupported: true,
});

const trust = DecisionTrust.parse({
  issuers: [{ kind: 'oidc', issuer: PROVIDER, audience: CLIENT_ID, jwks: providerJwks, groupsClaim: 'realm_access.roles' }],
});
const iat = Math.floor(NOW / 1000);
const claims = (more: Record<string, unknown> = {}) => ({
  iss: PROVIDER,
  aud: CLIENT_ID,
  sub: 'f3b2c1d0-alice',
  iat,
  exp: iat + 300,
  nonce: decisionNonce(BINDING),
  realm_access: { roles: ['finance', 'support'] },
  ...more,
});

describe('OpenID Connect ID tokens', () => {
  it('keeps the provider keys it can verify with, and leaves the others out', () => {
    expect(providerJwks.keys.map((k) => k.kid)).toEqual(['rsa-1', 'ec-1', 'okp-1']);
  });

  it.each([rsa, ec, okp])('verifies an $alg token signed by OpenSSL, with groups from the configured claim', (key) => {
    expect(verifyDecisionToken(idToken(key, claims({ jti: `id-${key.kid}` })), BINDING, trust, NOW)).toEqual({
      ok: true,
      decider: {
        approver: 'f3b2c1d0-alice',
        groups: ['finance', 'support'],
        issuer: PROVIDER,
        keyId: key.kid,
        tokenId: `id-${key.kid}`,
        expiresAt: NOW + 300_000,
      },
    });
  });

  it('names a token without jti by its signature, so it too can be refused as replayed', () => {
    const t = idToken(okp, claims());
    const result = verifyDecisionToken(t, BINDING, trust, NOW);
    expect(result).toMatchObject({ ok: true, decider: { tokenId: `sig:${t.split('.')[2]}` } });
    const used = new Set([result.ok ? result.decider.tokenId : '']);
    expect(verifyDecisionToken(t, BINDING, trust, NOW, { usedTokenIds: used })).toMatchObject({ ok: false, code: 'replayed' });
  });

  it('refuses a token whose nonce binds another decision, or none', () => {
    const other = decisionBinding('wf-1', BINDING.argsHash, { id: 'call-1', type: 'reject' });
    expect(verifyDecisionToken(idToken(rsa, claims({ nonce: decisionNonce(other) })), BINDING, trust, NOW)).toMatchObject({
      ok: false,
      code: 'binding_mismatch',
    });
    expect(verifyDecisionToken(idToken(rsa, claims({ nonce: undefined })), BINDING, trust, NOW)).toMatchObject({
      ok: false,
      code: 'binding_mismatch',
    });
  });

  it('refuses the wrong audience, an expired token, a tampered one, and groups that are not a list', () => {
    const code = (t: string) => {
      const r = verifyDecisionToken(t, BINDING, trust, NOW);
      return r.ok ? 'ok' : r.code;
    };
    expect(code(idToken(rsa, claims({ aud: 'another-client' })))).toBe('wrong_audience');
    expect(code(idToken(rsa, claims({ iat: iat - 4000, exp: iat - 700 })))).toBe('expired');
    expect(code(idToken(ec, claims({ realm_access: { roles: 'finance' } })))).toBe('invalid_claims');
    const [h, , s] = idToken(rsa, claims()).split('.');
    expect(code(`${h}.${encodeJsonSegment(claims({ sub: 'mallory' }))}.${s}`)).toBe('bad_signature');
  });

  it('refuses RS256 when the issuer is not trusted to use it', () => {
    const strict = DecisionTrust.parse({ issuers: [{ ...trust.issuers[0], algorithms: ['ES256', 'EdDSA'] }] });
    expect(verifyDecisionToken(idToken(rsa, claims()), BINDING, strict, NOW)).toMatchObject({ ok: false, code: 'alg_not_allowed' });
  });

  it('does not accept an RSA key shorter than 2048 bits into a key set', () => {
    const weak = providerKey('RS256', 'weak', 1024);
    expect(() => loadJwks({ keys: [weak.jwk] }, 'HITL_OIDC_JWKS')).toThrow(SigningConfigError);
    expect(() => loadJwks({ keys: [weak.jwk] }, 'HITL_OIDC_JWKS')).toThrow(/at least 2048 bits/);
  });

  it('does not accept a private key into a key set', () => {
    const leaked = { ...rsa.privateKey.export({ format: 'jwk' }), kid: 'rsa-1' };
    expect(() => loadJwks({ keys: [leaked] }, 'HITL_OIDC_JWKS')).toThrow(/holds private member "d"/);
  });
});
