import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../schemas/approval-policy.js';
import { MAX_PATTERNS_PER_WHEN } from '../schemas/condition.js';
import { MAX_PATTERN_PROGRAM, patternMatches, patternProblem } from './patterns.js';

const elapsed = (work: () => unknown) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};

describe('matches patterns', () => {
  it('run in time linear in the text: the patterns that backtrack for ever in JavaScript answer at once', () => {
    const text = `${'a'.repeat(64 * 1024)}b`;
    for (const pattern of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '(.*a){8}$']) {
      expect(patternProblem(pattern), pattern).toBeUndefined();
      // JavaScript's engine takes longer than the age of the universe on this text; RE2, well under a second.
      expect(
        elapsed(() => expect(patternMatches(pattern, '', text)).toBe(false)),
        pattern,
      ).toBeLessThan(2000);
    }
  });

  it('agree with JavaScript on the patterns both engines run', () => {
    const pattern = fc
      .array(fc.constantFrom('a', 'b', '.', 'a*', 'b+', '[ab]', '[^a]', '(a|b)', '(ab)?', '^', '$', '\\d', '\\w+', 'x?', 'A'), {
        minLength: 1,
        maxLength: 8,
      })
      .map((parts) => parts.join(''));
    // No \r: RE2's `.` matches it and JavaScript's does not.
    const text = fc.array(fc.constantFrom('a', 'b', 'A', '1', 'x', ' ', '\n'), { maxLength: 12 }).map((chars) => chars.join(''));
    const flags = fc.subarray(['i', 'm', 's']).map((chosen) => chosen.join(''));
    fc.assert(
      fc.property(pattern, flags, text, (p, f, t) => {
        expect(patternMatches(p, f, t)).toBe(new RegExp(p, f).test(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('are refused where a policy is defined when RE2 cannot run them, or they are too large', () => {
    expect(patternProblem('(?=a)b')).toMatch(/RE2 can run/);
    expect(patternProblem('(a)\\1')).toMatch(/RE2 can run/);
    expect(patternProblem('a{1,100}a{1,100}$')).toMatch(`at most ${MAX_PATTERN_PROGRAM}`);
    expect(patternProblem('a'.repeat(501))).toMatch(/at most 500 characters/);
    for (const ok of ['refund', '^DROP\\s+TABLE', '[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}', '^call-\\d+$'])
      expect(patternProblem(ok)).toBeUndefined();

    const policy = (when: unknown) => ApprovalPolicy.safeParse({ tools: { send_email: { when } } });
    expect(policy({ arg: 'body', op: 'matches', value: '(?<=x)y' }).success).toBe(false);
    expect(policy({ arg: 'body', op: 'matches', value: '^(a+)+$' }).success).toBe(true);
    const many = (n: number) => ({ any: Array.from({ length: n }, (_, i) => ({ arg: 'body', op: 'matches', value: `w${i}` })) });
    expect(policy(many(MAX_PATTERNS_PER_WHEN)).success).toBe(true);
    const refused = policy({ not: many(MAX_PATTERNS_PER_WHEN + 1) });
    expect(refused.success).toBe(false);
    expect(refused.error?.message).toContain(`at most ${MAX_PATTERNS_PER_WHEN}`);
  });
});
