/**
 * Property tests of signed decisions: every token the signer mints for a decision verifies for that decision and
 * no other; any change to a token is refused; whatever arrives, verification answers and never throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOW, newSigner, trustOf } from '../../test/helpers/signing.js';
import { DECISION_TYPES } from '../schemas/decision.js';
import { decisionBinding, type DecisionBinding } from './decision-claims.js';
import { signDecisionToken } from './sign-decision.js';
import { TOKEN_REFUSAL_CODES } from './token-refusal.js';
import { verifyDecisionToken } from './verify-decision.js';

const signers = [newSigner('EdDSA', 'ed'), newSigner('ES256', 'es')];
const trust = trustOf(signers.map((s) => s.key.publicJwk));

const text = fc.string({ minLength: 1, maxLength: 40 });
const decisionArb = fc.oneof(
  fc.record({ type: fc.constant('approve' as const), always: fc.option(fc.boolean(), { nil: undefined }) }),
  fc.record({ type: fc.constant('reject' as const), message: fc.option(text, { nil: undefined }) }),
  fc.record({ type: fc.constant('respond' as const), message: text }),
  fc.record({ type: fc.constant('ignore' as const), message: fc.option(text, { nil: undefined }) }),
  fc.record({
    type: fc.constant('edit' as const),
    args: fc.dictionary(text, fc.jsonValue(), { maxKeys: 3 }),
    name: fc.option(text, { nil: undefined }),
  }),
);
const bindingArb = fc
  .record({ workflowId: text, callId: text, argsHash: text, decision: decisionArb })
  .map(({ workflowId, callId, argsHash, decision }) => decisionBinding(workflowId, argsHash, { id: callId, ...decision }));
const requestArb = fc.record({
  signer: fc.constantFrom(...signers),
  binding: bindingArb,
  approver: fc.string({ minLength: 1, maxLength: 200 }),
  groups: fc.array(fc.string({ minLength: 1, maxLength: 30 }), { maxLength: 5 }),
  ttlSeconds: fc.integer({ min: 1, max: 3600 }),
  // When it was signed, relative to the workflow's clock: up to 50 s ahead (within the skew) or behind.
  offsetMs: fc.integer({ min: -3_600_000, max: 50_000 }),
});

describe('signed decisions, for any decision', () => {
  it('a token verifies for its own decision while it lives, with the signed identity', () => {
    fc.assert(
      fc.property(requestArb, ({ signer, binding, approver, groups, ttlSeconds, offsetMs }) => {
        const signedAt = NOW + offsetMs;
        const t = signDecisionToken(signer, { binding, approver, groups, now: signedAt, ttlSeconds });
        const result = verifyDecisionToken(t, binding, trust, NOW);
        const alive = Math.floor(NOW / 1000) < Math.floor(signedAt / 1000) + ttlSeconds + trust.clockSkewSeconds;
        if (alive) expect(result).toMatchObject({ ok: true, decider: { approver, groups, keyId: signer.key.kid } });
        else expect(result).toMatchObject({ ok: false, code: 'expired' });
      }),
      { numRuns: 200 },
    );
  });

  it('a token never verifies for another decision', () => {
    const otherArb = fc.tuple(requestArb, bindingArb).filter(([r, other]) => JSON.stringify(r.binding) !== JSON.stringify(other));
    fc.assert(
      fc.property(otherArb, ([{ signer, binding, approver }, other]) => {
        const t = signDecisionToken(signer, { binding, approver, now: NOW, ttlSeconds: 60 });
        const result = verifyDecisionToken(t, other, trust, NOW);
        expect(result.ok).toBe(false);
        expect(['wrong_workflow', 'wrong_call', 'args_mismatch', 'wrong_decision_type', 'content_mismatch']).toContain(
          !result.ok && result.code,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('changing any one character of a token is refused', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(requestArb, fc.nat(), fc.constantFrom(...alphabet), ({ signer, binding, approver }, at, char) => {
        const t = signDecisionToken(signer, { binding, approver, now: NOW, ttlSeconds: 60 });
        const i = at % t.length;
        fc.pre(t[i] !== char);
        expect(verifyDecisionToken(`${t.slice(0, i)}${char}${t.slice(i + 1)}`, binding, trust, NOW).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('anything at all gets an answer with a known refusal code, never an exception', () => {
    const binding: DecisionBinding = decisionBinding('wf', 'h', { id: 'c', type: 'approve' });
    const tokenLike = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map((parts) => parts.join('.')),
      fc.tuple(fc.jsonValue(), fc.jsonValue(), fc.string()).map(([h, p, s]) => [h, p].map(segment).concat(s).join('.')),
    );
    fc.assert(
      fc.property(tokenLike, (t) => {
        const result = verifyDecisionToken(t, binding, trust, NOW);
        expect(result.ok).toBe(false);
        expect(TOKEN_REFUSAL_CODES).toContain(!result.ok && result.code);
      }),
      { numRuns: 500 },
    );
  });

  it('knows every decision type', () => {
    expect(new Set(fc.sample(decisionArb, 200).map((d) => d.type))).toEqual(new Set(DECISION_TYPES));
  });
});

function segment(value: unknown): string {
  return Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url');
}
