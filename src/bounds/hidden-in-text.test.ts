import { describe, expect, it } from 'vitest';
import { revealHidden } from '../contract/hidden-characters.js';
import { hiddenCharacterPath } from './hidden-in-text.js';

describe('hiddenCharacterPath', () => {
  it('names the first string or key holding a hidden character, at any depth', () => {
    expect(hiddenCharacterPath({ subject: 'Re\u00adfund' })).toBe('subject');
    expect(hiddenCharacterPath({ items: [{ name: 'ok' }, { name: 'a\u202eb' }] })).toBe('items.1.name');
    expect(hiddenCharacterPath({ ['x\u200by']: 1 })).toBe('x\u200by');
    expect(hiddenCharacterPath('\u{E0041}')).toBe('the value');
    expect(hiddenCharacterPath({ body: 'tab\tand\r\nbreaks', n: 1, ok: true, none: null })).toBeUndefined();
  });

  it('finds every character the screens escape wherever it stands, in every plane', () => {
    const missed: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCodePoint(code);
      // Between two letters, where no written text needs it: what the screens show as an escape there.
      if (c !== '\t' && c !== '\n' && c !== '\r' && revealHidden(`a${c}a`) !== `a${c}a` && hiddenCharacterPath(c) === undefined)
        missed.push(code.toString(16));
    }
    expect(missed).toEqual([]);
  });

  it('is stricter than what screens escape: a joiner in an emoji or a Persian word counts, so a gate fails safe', () => {
    for (const text of ['👩\u200d💻', 'می\u200cخواهم']) {
      expect(revealHidden(text)).toBe(text);
      expect(hiddenCharacterPath(text)).toBe('the value');
    }
    for (const text of ['Café', 'naïve', 'Ελληνικά', '日本語', 'Zoë 👍']) expect(hiddenCharacterPath(text)).toBeUndefined();
  });
});
