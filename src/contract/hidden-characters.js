/**
 * Characters that hide or rewrite what a person reads, in text from outside (a model's arguments and replies, a
 * prompt, names): an approver must see that they are there before deciding. One rule for every screen: the CLI
 * (src/client/cli/terminal-text.ts) and the inbox page, which loads this file as it is (plain JavaScript, no build
 * step; `/shared/hidden-characters.js`, src/api/inbox/inbox-routes.ts).
 *
 * - C0 controls, DEL and C1 controls: a terminal runs them ("\u001b[2K" clears the line, U+009B is a CSI on some).
 * - Bidi embeddings, overrides, isolates and marks: U+202E shows the text after it reversed, so "0001" reads "1000".
 * - What prints as nothing: soft hyphen, combining grapheme joiner, Hangul fillers (blank look-alikes), Mongolian
 *   vowel separator, zero-width space, line and paragraph separators, word joiner and invisible operators, the
 *   deprecated format characters, byte order mark, interlinear annotation marks: "ali\u200bce" is not alice.
 * - Tag characters (U+E0000 to U+E007F), which can carry a whole hidden text (instructions for the next model that
 *   reads an email), except in the one sequence that needs them: a subdivision flag (U+1F3F4, tag letters or digits,
 *   cancel tag), which is kept whole.
 * - A variation selector right after another: one selects a glyph (emoji need U+FE0F), a run of them carries hidden
 *   bytes.
 *
 * Left alone: any script, any emoji with its joiners, the zero-width (non-)joiners that scripts need.
 */
const FLAG = '\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,6}\u{E007F}';
const SELECTORS = '\uFE00-\uFE0F\u180B-\u180D\u180F\u{E0100}-\u{E01EF}';
const HIDDEN =
  '[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e' +
  '\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{E0000}-\u{E007F}]' +
  `|(?<=[${SELECTORS}])[${SELECTORS}]`;
const PATTERN = `(${FLAG})|${HIDDEN}`;

/**
 * A hidden character as the escape a reader can see, one `\uXXXX` per UTF-16 unit (`\u202e`; a tag character is
 * two): JSON's own escapes and JavaScript's.
 */
export function codePointEscape(c) {
  return Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
}

/**
 * The text with each hidden character replaced by `show(c)` (its escape by default); a subdivision flag stays whole.
 * In JSON text the default escapes are JSON's own: the revealed text parses to the same value.
 */
export function revealHidden(text, show = codePointEscape) {
  return text.replace(new RegExp(PATTERN, 'gu'), (c, flag) => flag ?? show(c));
}
