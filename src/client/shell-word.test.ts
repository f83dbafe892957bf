import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellWord } from './shell-word.js';

/** What bash hands a command for `word` on a pasted line. */
const asBashPassesIt = (word: string) => execFileSync('bash', ['-c', `printf %s ${word}`], { encoding: 'utf8' });

describe('shellWord', () => {
  it('passes hostile workflow ids on as they are, and runs nothing in them', () => {
    for (const id of ['x; touch pwned', '$(touch pwned)', '`id`', "it's", 'a b', '*', '~', 'a\\b', '"q"', '-', '!x']) {
      expect(asBashPassesIt(shellWord(id))).toBe(id);
    }
  });

  it('leaves ids that need no quoting bare', () => {
    for (const id of ['agent-2026-11-27-7f3a', 'orders/refund-1234', 'run@host:1', 'a_b.c+d=e,f%g']) expect(shellWord(id)).toBe(id);
  });

  // Without controls: the CLI shows those as escapes (terminalText), so a pasted line never holds one.
  it('any id without control characters reaches the command unchanged (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s)),
        (id) => {
          expect(asBashPassesIt(shellWord(id))).toBe(id);
        },
      ),
      { numRuns: 60 },
    );
  });
});
