/** Keys and trust from the environment: what the API's signer and a new run read, and what they refuse. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BINDING, NOW, token } from '../../test/helpers/signing.js';
import { readEnvConfig } from '../config.js';
import { checkWorkflowDeterminism } from '../dev/determinism-check.js';
import { SigningConfigError } from '../errors.js';
import { decisionSignerFromConfig, decisionTrustFromConfig } from './signing-config.js';
import { decodeSegment, encodeSegment, signingInput } from './encoding.js';
import { generateSigningKey, jwkThumbprint, signingKeyFromJwk } from './signing-key.js';
import { verifySignature } from './verify-signature.js';
import { verifyDecisionToken } from './verify-decision.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-signing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('signing keys', () => {
  it.each(['EdDSA', 'ES256'] as const)('generates a %s key whose id is its RFC 7638 thumbprint', (alg) => {
    const { privateJwk, publicJwk } = generateSigningKey(alg);
    const { kty, crv, x } = publicJwk as { kty: 'OKP'; crv: 'Ed25519'; x: string };
    const y = (publicJwk as { y?: string }).y;
    expect(privateJwk.kid).toBe(jwkThumbprint(y === undefined ? { kty, crv, x } : { kty: 'EC', crv: 'P-256', x, y }));
    expect(publicJwk).toMatchObject({ kid: privateJwk.kid, alg, use: 'sig' });
    expect(publicJwk).not.toHaveProperty('d');
    expect(signingKeyFromJwk(JSON.stringify(privateJwk)).publicJwk).toEqual(publicJwk);
  });

  it('matches the test vectors of RFC 8037 (Appendix A): key, thumbprint and signature', () => {
    const key = signingKeyFromJwk({
      kty: 'OKP',
      crv: 'Ed25519',
      d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
      kid: 'rfc8037',
    });
    expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })).toBe(
      'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
    );
    const [header, payload] = ['eyJhbGciOiJFZERTQSJ9', 'RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc'];
    const signature = 'hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg';
    expect(encodeSegment(key.sign(signingInput(header, payload)))).toBe(signature);
    expect(verifySignature('EdDSA', key.publicJwk, signingInput(header, payload), decodeSegment(signature)!)).toBe(true);
  });

  it('refuses a key that is not JSON, not a private JWK, or whose d does not match x', () => {
    expect(() => signingKeyFromJwk('not json')).toThrow(SigningConfigError);
    expect(() => signingKeyFromJwk({ kty: 'RSA', n: 'AQAB', e: 'AQAB', d: 'AQAB', kid: 'r' })).toThrow(/not an Ed25519 or P-256/);
    const a = generateSigningKey('EdDSA', 'a').privateJwk;
    const b = generateSigningKey('EdDSA', 'b').privateJwk;
    expect(() => signingKeyFromJwk({ ...a, d: b.d })).toThrow(/d is not the private key/);
  });
});

describe('decision trust from the environment', () => {
  it('trusts the signing key alone when no JWKS is given, and signs tokens the run accepts', () => {
    const { privateJwk } = generateSigningKey('EdDSA', '2026-07');
    const config = readEnvConfig({ HITL_SIGNING_KEY: JSON.stringify(privateJwk) });
    const signer = decisionSignerFromConfig(config)!;
    const trust = decisionTrustFromConfig(config)!;
    expect(trust.issuers).toMatchObject([
      { kind: 'hitl', issuer: 'hitl', audience: 'hitl-decisions', jwks: { keys: [{ kid: '2026-07' }] } },
    ]);
    expect(verifyDecisionToken(token(signer), BINDING, trust, NOW).ok).toBe(true);
  });

  it('reads the key and a rotation JWKS from files', () => {
    const next = generateSigningKey('ES256', '2026-08');
    const current = generateSigningKey('EdDSA', '2026-07');
    const keyFile = path.join(dir, 'signing-key.json');
    const jwksFile = path.join(dir, 'trusted.jwks.json');
    writeFileSync(keyFile, JSON.stringify(next.privateJwk));
    writeFileSync(jwksFile, JSON.stringify({ keys: [current.publicJwk, next.publicJwk] }));
    const config = readEnvConfig({ HITL_SIGNING_KEY_FILE: keyFile, HITL_TRUSTED_JWKS_FILE: jwksFile, HITL_TOKEN_ISSUER: 'shop-api' });
    const signer = decisionSignerFromConfig(config)!;
    expect(signer).toMatchObject({ issuer: 'shop-api', key: { kid: '2026-08', alg: 'ES256' } });
    expect(decisionTrustFromConfig(config)!.issuers[0]!.jwks.keys.map((k) => k.kid)).toEqual(['2026-07', '2026-08']);
    // A trusted set without the signing key (or another key under its id): every decision signed here would be refused.
    const other = generateSigningKey('EdDSA', '2026-08');
    for (const keys of [[current.publicJwk], [current.publicJwk, other.publicJwk]]) {
      writeFileSync(jwksFile, JSON.stringify({ keys }));
      expect(() => decisionTrustFromConfig(config)).toThrow(
        'HITL_SIGNING_KEY (key id 2026-08) is not in HITL_TRUSTED_JWKS, so runs would refuse every decision it signs.',
      );
    }
  });

  it('is undefined when nothing is configured, and refuses half a provider or a bad key set', () => {
    expect(decisionTrustFromConfig(readEnvConfig({}))).toBeUndefined();
    expect(decisionSignerFromConfig(readEnvConfig({}))).toBeUndefined();
    expect(() => decisionTrustFromConfig(readEnvConfig({ HITL_OIDC_ISSUER: 'https://id.example.com' }))).toThrow(/needs HITL_OIDC_ISSUER/);
    expect(() => decisionTrustFromConfig(readEnvConfig({ HITL_TRUSTED_JWKS: '{"keys": []}' }))).toThrow(SigningConfigError);
    const key = generateSigningKey('EdDSA', 'same').publicJwk;
    expect(() => decisionTrustFromConfig(readEnvConfig({ HITL_TRUSTED_JWKS: JSON.stringify({ keys: [key, key] }) }))).toThrow(
      /key id same appears twice/,
    );
    expect(() => decisionTrustFromConfig(readEnvConfig({ HITL_TRUSTED_JWKS_FILE: path.join(dir, 'missing.json') }))).toThrow(/Cannot read/);
  });
});

describe('the verification path', () => {
  it('passes the workflow determinism check, so the workflow may import it', () => {
    const { files, findings } = checkWorkflowDeterminism(process.cwd(), ['src/signing/verify-decision.ts']);
    expect(findings).toEqual([]);
    expect(files).toContain('src/signing/verify-signature.ts');
  });
});
