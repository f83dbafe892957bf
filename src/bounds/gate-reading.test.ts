import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldedForGates, foldedText } from './gate-reading.js';

describe('foldedText', () => {
  it('reads full-width forms and the spaces of other scripts as ASCII', () => {
    expect(foldedText('Ｒｅｆｕｎｄ ＃１２３４！')).toBe('Refund #1234!');
    expect(foldedText('DROP\u00a0TABLE\u3000users\u2009;\u202f\u205f\u1680\u2000x')).toBe('DROP TABLE users ;    x');
  });

  it('leaves other text as written: accents, other scripts, look-alikes, hidden characters, line separators', () => {
    for (const text of [
      'Café naïve',
      'Ελληνικά',
      '日本語のテキスト',
      'Rеfund (Cyrillic е)',
      '𝐑𝐞𝐟𝐮𝐧𝐝',
      'Re\u00adfund',
      'a\u2028b',
      'ｱｲｳ half-width kana',
    ])
      expect(foldedText(text)).toBe(text);
  });

  it('maps each character to one, never to a fold that folds again', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = foldedText(text);
        expect(once.length).toBe(text.length);
        expect(foldedText(once)).toBe(once);
      }),
    );
  });
});

describe('foldedForGates', () => {
  it('folds every string at any depth, keeps keys, and says when nothing folds', () => {
    expect(foldedForGates({ subject: 'Ｒｅｆｕｎｄ', items: [{ note: 'a\u00a0b' }, 3, null], ok: true })).toEqual({
      subject: 'Refund',
      items: [{ note: 'a b' }, 3, null],
      ok: true,
    });
    expect(foldedForGates({ ['ｋｅｙ']: 'plain' })).toBeUndefined();
    expect(foldedForGates({ subject: 'Refund', n: 1, list: ['日本語'] })).toBeUndefined();
  });

  it('keeps a `__proto__` key a plain key, and never changes the value it was given', () => {
    const args = JSON.parse('{"__proto__": {"polluted": "Ｘ"}, "s": "Ａ"}') as Record<string, unknown>;
    const folded = foldedForGates(args)!;
    expect(Object.getPrototypeOf(folded)).toBe(Object.prototype);
    expect(Object.keys(folded)).toEqual(['__proto__', 's']);
    expect(JSON.stringify(folded)).toBe('{"__proto__":{"polluted":"X"},"s":"A"}');
    expect(JSON.stringify(args)).toBe('{"__proto__":{"polluted":"Ｘ"},"s":"Ａ"}');
  });

  it('is undefined exactly when folding changes nothing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const folded = foldedForGates(value);
        const same = JSON.stringify(JSON.parse(JSON.stringify(value), (_k, v) => (typeof v === 'string' ? foldedText(v) : v)));
        expect(folded === undefined).toBe(same === JSON.stringify(value));
        if (folded !== undefined) expect(JSON.stringify(folded)).toBe(same);
      }),
    );
  });
});
