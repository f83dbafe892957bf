import { describe, expect, it } from 'vitest';
import { blankPromptProblem, isBlankText } from './blank-text.js';

describe('isBlankText', () => {
  it('is true for text of spaces, line breaks and zero-width characters only, the empty text too', () => {
    for (const text of ['', ' ', '\t\r\n', '\u00a0\u3000', '\u200b\u200d\ufeff', '\u2028 \u2009']) expect(isBlankText(text)).toBe(true);
    // What prints as nothing too: a Hangul filler, the braille blank, bidi marks, a soft hyphen, a variation selector.
    for (const text of ['\u3164', '\u2800', '\u200e\u202e', '\u00ad', '\ufe0f', '\u115f \u0001']) expect(isBlankText(text)).toBe(true);
  });

  it('is false once anything prints', () => {
    for (const text of ['.', ' a ', '\u3000日', '\u200b👍', '0', '👍\ufe0f', '\u{E0041}x']) expect(isBlankText(text)).toBe(false);
  });

  it('refuses a prompt that says nothing, naming the field', () => {
    expect(blankPromptProblem('\n \t')).toMatch(/^prompt: it says nothing/);
    expect(blankPromptProblem(' Refund order 1234 ')).toBeUndefined();
  });
});
