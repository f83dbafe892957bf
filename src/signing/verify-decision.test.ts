/** Signed decisions: the round trip with each algorithm, and every refusal with its stable code. */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { AUDIENCE, BINDING, ISSUER, NOW, claims, craft, newSigner, token, trustOf } from '../../test/helpers/signing.js';
import { argsHash } from '../policy/args-hash.js';
import { DECISION_TOKEN_TYPE, decisionBinding, decisionContentHash } from './decision-claims.js';
import { decodeSegment } from './encoding.js';
import { MAX_TOKEN_LENGTH } from './jws.js';
import { verifyDecisionToken } from './verify-decision.js';

const ed = newSigner('EdDSA', 'ed-2026-07');
const es = newSigner('ES256', 'es-2026-07');
const trust = trustOf([ed.key.publicJwk, es.key.publicJwk]);
const header = (signer = ed, more: object = {}) => ({ alg: signer.key.alg, kid: signer.key.kid, typ: DECISION_TOKEN_TYPE, ...more });

const verify = (t: unknown, binding = BINDING, options = {}) => verifyDecisionToken(t, binding, trust, NOW, options);
const codeOf = (t: unknown, binding = BINDING, options = {}) => {
  const result = verify(t, binding, options);
  return result.ok ? 'ok' : result.code;
};

describe('a valid token', () => {
  it.each([
    ['EdDSA', ed],
    ['ES256', es],
  ])('verifies with %s and gives the signed identity', (_alg, signer) => {
    const result = verify(token(signer, { jti: 'tok-1' }));
    expect(result).toEqual({
      ok: true,
      decider: {
        approver: 'alice',
        groups: ['finance'],
        issuer: ISSUER,
        keyId: signer.key.kid,
        tokenId: 'tok-1',
        expiresAt: NOW + 300_000,
      },
    });
  });

  it('binds an edit to its new arguments, target and message', () => {
    const edit = { id: 'call-1', type: 'edit' as const, args: { orderId: '1234', amount: 5 }, message: 'partial' };
    const binding = decisionBinding('wf-1', BINDING.argsHash, edit);
    const signed = token(ed, { binding });
    expect(codeOf(signed, binding)).toBe('ok');
    for (const changed of [
      { ...edit, args: { orderId: '1234', amount: 500 } },
      { ...edit, message: 'all' },
      { ...edit, name: 'process_refund' },
    ]) {
      expect(codeOf(signed, decisionBinding('wf-1', BINDING.argsHash, changed))).toBe('content_mismatch');
    }
  });

  it('hashes a decision the same whether `always: false` and an empty message are spelled out or left out', () => {
    expect(decisionContentHash({ always: false, message: '' })).toBe(decisionContentHash({}));
    expect(decisionContentHash({ always: true })).not.toBe(decisionContentHash({}));
  });

  it('is accepted within the clock skew on either side', () => {
    expect(codeOf(token(ed, { now: NOW + 50_000 }))).toBe('ok'); // issued 50 s "in the future"
    expect(codeOf(token(ed, { now: NOW - 330_000, ttlSeconds: 300 }))).toBe('ok'); // expired 30 s ago
  });
});

describe('refusals, each with its code', () => {
  it('unsigned: no token, or an empty one', () => {
    expect(codeOf(undefined)).toBe('unsigned');
    expect(codeOf('')).toBe('unsigned');
    expect(verify(null)).toEqual({ ok: false, code: 'unsigned', message: 'This run requires a signed decision token.' });
  });

  it('malformed: not a string, not three segments, not JSON, no kid, crit', () => {
    expect(codeOf(42)).toBe('malformed');
    expect(codeOf({ token: 'x' })).toBe('malformed');
    expect(codeOf('a.b')).toBe('malformed');
    expect(codeOf('a.b.c.d')).toBe('malformed');
    expect(codeOf('!!!.???.***')).toBe('malformed');
    expect(codeOf(craft([1, 2], claims(), ed.key.sign))).toBe('malformed');
    expect(codeOf(craft({ alg: 'EdDSA', typ: DECISION_TOKEN_TYPE }, claims(), ed.key.sign))).toBe('malformed');
    expect(codeOf(craft(header(ed, { crit: ['exp'] }), claims(), ed.key.sign))).toBe('malformed');
    // Padding and the base64 (not base64url) alphabet are not the compact serialization.
    const valid = token(ed);
    expect(codeOf(valid.replace('.', '=.'))).toBe('malformed');
  });

  it('oversized: refused before decoding', () => {
    const huge = craft(header(), claims({ sub: 'a'.repeat(MAX_TOKEN_LENGTH) }), ed.key.sign);
    expect(verify(huge)).toMatchObject({ ok: false, code: 'oversized' });
  });

  it('bad signature: a forged signature, or a tampered header or payload', () => {
    const mallory = newSigner('EdDSA', ed.key.kid); // same kid, other key
    expect(codeOf(token(mallory))).toBe('bad_signature');
    const [h, p, s] = token(ed).split('.') as [string, string, string];
    const otherPayload = craft(header(), claims({ sub: 'mallory' }), ed.key.sign).split('.')[1];
    expect(codeOf(`${h}.${otherPayload}.${s}`)).toBe('bad_signature');
    const otherHeader = craft(header(ed, { typ: DECISION_TOKEN_TYPE, x: 1 }), claims(), ed.key.sign).split('.')[0];
    expect(codeOf(`${otherHeader}.${p}.${s}`)).toBe('bad_signature');
    expect(codeOf(`${h}.${p}.${s.slice(0, -4)}AAAA`)).toBe('bad_signature');
    expect(codeOf(`${h}.${p}.`)).toBe('bad_signature');
  });

  it('unknown key: a key id no trusted key has, e.g. a key rotated out', () => {
    const old = newSigner('EdDSA', 'ed-2026-01');
    const rotated = trustOf([ed.key.publicJwk]);
    expect(verifyDecisionToken(token(old), BINDING, rotated, NOW)).toMatchObject({ ok: false, code: 'unknown_key' });
    // During the rotation both are trusted, and both verify.
    const both = trustOf([old.key.publicJwk, ed.key.publicJwk]);
    expect(verifyDecisionToken(token(old), BINDING, both, NOW).ok).toBe(true);
    expect(verifyDecisionToken(token(ed), BINDING, both, NOW).ok).toBe(true);
  });

  it('algorithm not allowed: none, HMAC with the public key as secret, RS256 from this issuer', () => {
    expect(codeOf(craft(header(ed, { alg: 'none' }), claims(), () => new Uint8Array()))).toBe('alg_not_allowed');
    const publicBytes = decodeSegment((ed.key.publicJwk as { x: string }).x)!;
    const hs256 = craft(header(ed, { alg: 'HS256' }), claims(), (data) => hmac(sha256, publicBytes, data));
    expect(codeOf(hs256)).toBe('alg_not_allowed');
    expect(codeOf(craft(header(ed, { alg: 'RS256' }), claims(), ed.key.sign))).toBe('alg_not_allowed');
    expect(codeOf(craft(header(ed, { alg: 'ES512' }), claims(), ed.key.sign))).toBe('alg_not_allowed');
  });

  it('algorithm confusion: a header naming another algorithm than the key is refused', () => {
    // The Ed25519 key's id with ES256, and the P-256 key's id with EdDSA: the key type decides, not the header.
    expect(codeOf(craft(header(ed, { alg: 'ES256' }), claims(), es.key.sign))).toBe('unknown_key');
    expect(codeOf(craft(header(es, { alg: 'EdDSA' }), claims(), ed.key.sign))).toBe('unknown_key');
  });

  it('wrong token type: a JWT signed by a trusted key for another purpose', () => {
    expect(codeOf(craft(header(ed, { typ: 'JWT' }), claims(), ed.key.sign))).toBe('wrong_token_type');
    expect(codeOf(craft({ alg: 'EdDSA', kid: ed.key.kid }, claims(), ed.key.sign))).toBe('wrong_token_type');
  });

  it('invalid claims: a signed payload that is not a decision', () => {
    expect(codeOf(craft(header(), claims({ decision: undefined }), ed.key.sign))).toBe('invalid_claims');
    expect(codeOf(craft(header(), claims({ sub: '' }), ed.key.sign))).toBe('invalid_claims');
    expect(codeOf(craft(header(), claims({ exp: '2030-01-01' }), ed.key.sign))).toBe('invalid_claims');
    expect(codeOf(craft(header(), claims({ groups: Array.from({ length: 51 }, (_, i) => `g${i}`) }), ed.key.sign))).toBe('invalid_claims');
  });

  it('wrong issuer and wrong audience', () => {
    expect(codeOf(token({ ...ed, issuer: 'someone-else' }))).toBe('wrong_issuer');
    expect(codeOf(token({ ...ed, audience: 'another-service' }))).toBe('wrong_audience');
    expect(codeOf(craft(header(), claims({ aud: ['x', AUDIENCE] }), ed.key.sign))).toBe('ok');
  });

  it('expired, not yet valid, and a lifetime longer than the issuer may grant', () => {
    expect(verify(token(ed, { now: NOW - 400_000, ttlSeconds: 300 }))).toMatchObject({
      ok: false,
      code: 'expired',
      message: 'The token expired at 2026-07-01T11:58:20.000Z.',
    });
    expect(codeOf(token(ed, { now: NOW + 120_000 }))).toBe('not_yet_valid');
    expect(codeOf(craft(header(), claims({ nbf: Math.floor(NOW / 1000) + 600 }), ed.key.sign))).toBe('not_yet_valid');
    expect(codeOf(token(ed, { ttlSeconds: 7200 }))).toBe('lifetime_too_long');
  });

  it('another workflow, another call, other arguments, another type', () => {
    const signed = token(ed);
    expect(codeOf(signed, { ...BINDING, workflowId: 'wf-2' })).toBe('wrong_workflow');
    expect(codeOf(signed, { ...BINDING, callId: 'call-2' })).toBe('wrong_call');
    expect(codeOf(signed, { ...BINDING, argsHash: argsHash({ orderId: '9999' }) })).toBe('args_mismatch');
    expect(codeOf(signed, decisionBinding('wf-1', BINDING.argsHash, { id: 'call-1', type: 'reject' }))).toBe('wrong_decision_type');
    expect(codeOf(signed, { ...BINDING, contentHash: decisionContentHash({ always: true }) })).toBe('content_mismatch');
  });

  it('replayed: a token id this run already used', () => {
    const signed = token(ed, { jti: 'once' });
    expect(codeOf(signed, BINDING, { usedTokenIds: new Set(['other']) })).toBe('ok');
    expect(verify(signed, BINDING, { usedTokenIds: new Set(['once']) })).toEqual({
      ok: false,
      code: 'replayed',
      message: 'Token once was already used in this run; sign each decision anew.',
    });
  });
});
