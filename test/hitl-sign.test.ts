/** `hitl keygen` and `hitl sign` as real processes: the key it makes signs tokens a run with its JWKS accepts. */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { argsHash } from '../src/policy/args-hash.js';
import { decisionBinding } from '../src/signing/decision-claims.js';
import { DecisionTrust } from '../src/signing/trust.js';
import { verifyDecisionToken } from '../src/signing/verify-decision.js';

function hitl(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/hitl.js', ...args], { env: { ...process.env, NO_COLOR: '1', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('hitl keygen and hitl sign', () => {
  it('signs an edit with a generated ES256 key; the decide JSON carries the token the run verifies', async () => {
    const keygen = await hitl(['--json', 'keygen', '--alg', 'ES256', '--kid', '2026-07']);
    expect(keygen.code).toBe(0);
    const { signingKey, jwks } = JSON.parse(keygen.stdout);
    expect(jwks.keys).toEqual([expect.objectContaining({ kid: '2026-07', kty: 'EC', alg: 'ES256' })]);
    expect(jwks.keys[0]).not.toHaveProperty('d');

    const hash = argsHash({ orderId: '1234', amount: 50000 });
    const signed = await hitl(
      [
        ...['--json', 'sign', '--workflow-id', 'run-7', '--call', 'e1', '--type', 'edit', '--args-hash', hash],
        ...['--args', '{"orderId":"1234","amount":100}', '--message', 'partial', '--as', 'fiona', '--group', 'finance', '--ttl', '90s'],
      ],
      { HITL_SIGNING_KEY: JSON.stringify(signingKey) },
    );
    expect(signed.code).toBe(0);
    const { decisions } = JSON.parse(signed.stdout);
    const { token, ...decision } = decisions[0];
    expect(decision).toEqual({ id: 'e1', type: 'edit', args: { orderId: '1234', amount: 100 }, message: 'partial', argsHash: hash });

    const trust = DecisionTrust.parse({ issuers: [{ kind: 'hitl', issuer: 'hitl', audience: 'hitl-decisions', jwks }] });
    const result = verifyDecisionToken(token, decisionBinding('run-7', hash, decision), trust, Date.now());
    expect(result).toMatchObject({ ok: true, decider: { approver: 'fiona', groups: ['finance'], keyId: '2026-07' } });
    expect(result.ok && result.decider.expiresAt - Date.now()).toBeLessThanOrEqual(91_000);
    // The same token for other edited arguments is refused.
    const other = decisionBinding('run-7', hash, { ...decision, args: { orderId: '1234', amount: 50000 } });
    expect(verifyDecisionToken(token, other, trust, Date.now())).toMatchObject({ ok: false, code: 'content_mismatch' });
  });

  it('says what is missing without a signing key, and refuses a bad ttl', async () => {
    const args = ['sign', '--workflow-id', 'w', '--call', 'c', '--type', 'approve', '--args-hash', 'h', '--as', 'a'];
    const noKey = await hitl(args, { HITL_SIGNING_KEY: '', HITL_SIGNING_KEY_FILE: '' });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('No signing key: set HITL_SIGNING_KEY or HITL_SIGNING_KEY_FILE');
    const badTtl = await hitl([...args, '--ttl', 'soon'], { HITL_SIGNING_KEY: 'x' });
    expect(badTtl.code).toBe(2);
    expect(badTtl.stderr).toContain('expected a duration such as 90s or 10m');
  });
});
