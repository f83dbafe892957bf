import { describe, expect, it } from 'vitest';
import { ApiTokens, TokenVerifier } from './api-tokens.js';

const tokens = ApiTokens.parse({
  'first-token-0123456789': { approver: 'ann', groups: ['finance'] },
  'second-token-012345678': { approver: 'ben' },
  'third-token-0123456789': { approver: 'cat' },
});

describe('TokenVerifier', () => {
  it('maps tokens to identities, and nothing else to anything', () => {
    const verifier = new TokenVerifier(tokens);
    expect(verifier.verify('second-token-012345678')).toEqual({ approver: 'ben', groups: [] });
    for (const wrong of ['second-token-01234567', 'second-token-0123456789', 'SECOND-TOKEN-012345678', '', 'x'.repeat(10_000)]) {
      expect(verifier.verify(wrong)).toBeUndefined();
    }
  });

  it('compares in constant time: every configured token, equal-length digests, whichever matches', () => {
    for (const presented of ['first-token-0123456789', 'third-token-0123456789', 'nobody', 'a much longer token than any of the others']) {
      const compared: [number, number][] = [];
      new TokenVerifier(tokens, (a, b) => {
        compared.push([a.length, b.length]);
        return a.equals(b);
      }).verify(presented);
      expect(compared).toEqual([
        [32, 32],
        [32, 32],
        [32, 32],
      ]);
    }
  });

  it('refuses a name that is both a person and a group, which a bare approver entry could not tell apart', () => {
    const parsed = ApiTokens.safeParse({
      'first-token-0123456789': { approver: 'finance' },
      'second-token-012345678': { approver: 'ann', groups: ['finance', 'ops'] },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        [],
        '"finance" is both a person and a group: a policy\'s approver "finance" would match either. Rename one (a policy can also say user:finance or group:finance).',
      ],
    ]);
    // One person's own group of their own name is the same confusion.
    expect(ApiTokens.safeParse({ 'first-token-0123456789': { approver: 'ops', groups: ['ops'] } }).success).toBe(false);
    expect(ApiTokens.safeParse({ 'first-token-0123456789': { approver: 'ann', groups: ['finance'] } }).success).toBe(true);
  });

  it('refuses names with white space around them or control characters, which would count as other people', () => {
    for (const name of ['alice ', ' alice', 'ali\nce', 'alice\u0000', '\t']) {
      expect(ApiTokens.safeParse({ 'first-token-0123456789': { approver: name } }).success, JSON.stringify(name)).toBe(false);
      expect(ApiTokens.safeParse({ 'first-token-0123456789': { approver: 'ann', groups: [name] } }).success, JSON.stringify(name)).toBe(
        false,
      );
    }
    for (const name of ['alice', 'Alice Smith', 'a', 'ann@example.com', 'Zoë']) {
      expect(ApiTokens.safeParse({ 'first-token-0123456789': { approver: name, groups: [`${name}s`] } }).success, name).toBe(true);
    }
  });

  it('refuses short tokens in the configuration', () => {
    expect(ApiTokens.safeParse({ short: { approver: 'x' } }).success).toBe(false);
  });
});
