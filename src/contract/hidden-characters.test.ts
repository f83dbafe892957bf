/**
 * Where the zero-width joiner and non-joiner stay as they are and where they show as escapes: the rule every screen
 * shares (the CLI's terminalText, the inbox's visibleText). The property test of the whole rule is in
 * src/client/cli/terminal-text.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { revealHidden } from './hidden-characters.js';

describe('hidden characters: the joiners', () => {
  it('keeps the joiners emoji and scripts are written with, where they are written with them', () => {
    for (const kept of ['👩🏽\u200d💻 می\u200cخواهم', 'क्\u200dष', '🏳️\u200d🌈', '👩\u200d❤️\u200d💋\u200d👨', 'ក្\u200dក'])
      expect(revealHidden(kept)).toBe(kept);
  });

  it('shows them anywhere else: "/etc/pass\\u200dwd" reads as /etc/passwd, and is not the file it names', () => {
    expect(revealHidden('/etc/pass\u200dwd ACME\u200c-001\u200d')).toBe('/etc/pass\\u200dwd ACME\\u200c-001\\u200d');
    expect(revealHidden('\u200d💻 a\u200cخ ی\u200c')).toBe('\\u200d💻 a\\u200cخ ی\\u200c');
  });

  it("shows one next to a joining script's sign that prints as nothing, with which it would hide", () => {
    // Khmer's inherent vowel U+17B4 is a mark of the script, and default-ignorable; so is a Mongolian selector, which
    // stays after a Mongolian letter, but not with a joiner after it.
    expect(revealHidden('ក\u17b4\u200dក')).toBe('ក\\u17b4\\u200dក');
    expect(revealHidden('ក\u200d\u17b4ក')).toBe('ក\\u200d\\u17b4ក');
    expect(revealHidden('ᠠ\u180b\u200cᠠ')).toBe('ᠠ\u180b\\u200cᠠ');
  });
});

describe('hidden characters: format controls that are not default-ignorable', () => {
  it('shows the Egyptian hieroglyph format controls, which print as nothing outside a quadrat', () => {
    expect(revealHidden('ACME\u{13430}-001\u{1343f}')).toBe('ACME\\ud80d\\udc30-001\\ud80d\\udc3f');
    // Between hieroglyphs as well: a run of them would carry hidden bits there too.
    expect(revealHidden('𓀀\u{13431}𓀁')).toBe('𓀀\\ud80d\\udc31𓀁');
  });

  it('keeps the prepended concatenation marks, which print a sign of their own', () => {
    for (const kept of ['\u0600١٢٣', '\u06dd١', '\u{110bd}'] as const) expect(revealHidden(kept)).toBe(kept);
  });
});
