/** Request tokens: the round trip, the binding to one start, and that no decision token passes as one. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ISSUER, NOW, craft, newSigner, token as decisionToken, trustOf } from '../../test/helpers/signing.js';
import { DECISION_TOKEN_TYPE } from './decision-claims.js';
import { decodeSegment } from './encoding.js';
import { requestBinding, requestNonce } from './request-claims.js';
import { signRequestToken } from './sign-request.js';
import { DecisionTrust } from './trust.js';
import { verifyRequestToken } from './verify-request.js';

const ed = newSigner('EdDSA', 'ed-2026-07');
const trust = trustOf([ed.key.publicJwk]);
const START = { workflowId: 'refunds-1', agent: 'support', prompt: 'Refund order 1234', requestedBy: 'ann', now: NOW };
const expected = requestBinding(START.workflowId, START.agent, START.prompt);
const codeOf = (token: unknown, binding = expected, at = NOW) => {
  const result = verifyRequestToken(token, binding, trust, at);
  return result.ok ? 'ok' : result.code;
};

describe('a request token', () => {
  it('proves who asked for exactly this start', () => {
    const result = verifyRequestToken(signRequestToken(ed, START), expected, trust, NOW);
    expect(result).toMatchObject({ ok: true, identity: { subject: 'ann', groups: [], issuer: ISSUER, keyId: 'ed-2026-07' } });
    expect(result.ok && result.identity.expiresAt).toBe(NOW + 120_000);
  });

  it('is refused for another workflow id, agent or prompt', () => {
    const signed = signRequestToken(ed, START);
    expect(codeOf(signed, requestBinding('refunds-2', START.agent, START.prompt))).toBe('wrong_workflow');
    expect(codeOf(signed, requestBinding(START.workflowId, 'ops', START.prompt))).toBe('wrong_agent');
    expect(codeOf(signed, requestBinding(START.workflowId, START.agent, 'Refund order 1234 and 5678'))).toBe('prompt_mismatch');
  });

  it('is refused once expired, before it was issued, unsigned, or signed by a key the run does not trust', () => {
    const signed = signRequestToken(ed, { ...START, ttlSeconds: 60 });
    expect(codeOf(signed, expected, NOW + 59_000)).toBe('ok');
    // The run's clock skew (60 s) is on top of the lifetime.
    expect(codeOf(signed, expected, NOW + 121_000)).toBe('expired');
    expect(codeOf(signed, expected, NOW - 61_000)).toBe('not_yet_valid');
    expect(codeOf(undefined)).toBe('unsigned');
    expect(codeOf(signRequestToken(newSigner('EdDSA', 'ed-2026-07'), START))).toBe('bad_signature');
  });

  it('is never a decision token, nor a decision token one', () => {
    expect(codeOf(decisionToken(ed))).toBe('wrong_token_type');
    const request = signRequestToken(ed, START);
    expect(JSON.parse(new TextDecoder().decode(decodeSegment(request.split('.')[0]!)))).toMatchObject({ typ: 'hitl-request+jwt' });
    expect(DECISION_TOKEN_TYPE).not.toBe('hitl-request+jwt');
  });

  it('binds a provider ID token by a nonce that no decision has', () => {
    const oidc = DecisionTrust.parse({
      issuers: [{ kind: 'oidc', issuer: 'https://id.example', audience: 'inbox', jwks: { keys: [ed.key.publicJwk] } }],
    });
    const iat = Math.floor(NOW / 1000);
    // A provider's ID token (typ JWT), here signed with the test key.
    const idToken = (nonce: string) =>
      craft(
        { alg: ed.key.alg, kid: ed.key.kid, typ: 'JWT' },
        { iss: 'https://id.example', aud: 'inbox', sub: 'ann@example.com', iat, exp: iat + 300, nonce },
        (data) => ed.key.sign(data),
      );
    expect(verifyRequestToken(idToken(requestNonce(expected)), expected, oidc, NOW)).toMatchObject({
      ok: true,
      identity: { subject: 'ann@example.com' },
    });
    const other = requestBinding('refunds-2', START.agent, START.prompt);
    expect(verifyRequestToken(idToken(requestNonce(other)), expected, oidc, NOW)).toMatchObject({ ok: false, code: 'binding_mismatch' });
  });

  it('is refused for any other start it is checked against (property)', () => {
    const signed = signRequestToken(ed, START);
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (workflowId, agent, prompt) => {
        fc.pre(workflowId !== START.workflowId || agent !== START.agent || prompt !== START.prompt);
        expect(codeOf(signed, requestBinding(workflowId, agent, prompt))).not.toBe('ok');
      }),
    );
  });
});
