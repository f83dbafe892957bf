/**
 * Characters that hide or rewrite what a person reads, in text from outside (a model's arguments and replies, a
 * prompt, names): an approver must see that they are there before deciding. One rule for every screen: the CLI
 * (src/client/cli/terminal-text.ts) and the inbox page, which loads this file as it is (plain JavaScript, no build
 * step; `/shared/hidden-characters.js`, src/api/inbox/inbox-routes.ts).
 *
 * - C0 controls, DEL and C1 controls: a terminal runs them ("\u001b[2K" clears the line, U+009B is a CSI on some).
 * - Unicode's default-ignorable characters, which print as nothing: bidi controls (U+202E shows "0001" as "1000"),
 *   zero-width characters ("ali\u200bce" is not alice), fillers, format controls, and the tag characters, which can
 *   carry a whole hidden text for the next model that reads it. Also the line and paragraph separators, the braille
 *   blank and the interlinear annotation marks, which are not default-ignorable but hide or break lines as well, and
 *   the sixteen Egyptian hieroglyph format controls (U+13430–1343F), which only arrange the signs around them and
 *   print as nothing elsewhere: shown between hieroglyphs too, where the escape changes the layout, not the text,
 *   because a run of them would otherwise carry four hidden bits apiece.
 * - Except what written text needs, kept as it is: the zero-width joiner inside an emoji sequence, the joiner and
 *   non-joiner between letters of a script written with them (Arabic, Indic and a few more; between Latin letters
 *   "pass\u200dwd" only looks like "passwd"), the three subdivision flags (U+1F3F4, tag letters, cancel tag), and
 *   one variation selector right after a character that takes it: emoji presentation after an emoji or in a keycap,
 *   an ideographic variant after a CJK ideograph, a standardized variant after a math symbol beyond ASCII, a CJK
 *   ideograph or a Myanmar letter, a Mongolian variant after a Mongolian letter. A selector anywhere else (after a
 *   Latin letter, after another selector) can only carry hidden bytes.
 */
const tags = (text) => [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const FLAG = `\u{1F3F4}(?:${['gbeng', 'gbsct', 'gbwls'].map(tags).join('|')})\u{E007F}`;
const SELECTOR_IN_PLACE = [
  '(?<=\\p{Extended_Pictographic})[\uFE0E\uFE0F]',
  // A keycap: a digit, # or *, the emoji selector, the combining keycap.
  '(?<=[#*0-9])\uFE0F(?=\u20E3)',
  '(?<=\\p{Unified_Ideograph})[\u{E0100}-\u{E01EF}\uFE00-\uFE0D]',
  // Math signs beyond ASCII (≤, ∩): `=` or `<` never take a variant.
  '(?<=(?![\u0000-\u007f])\\p{Sm}|[\u1000-\u109F])[\uFE00-\uFE0D]',
  '(?<=[\u1820-\u18AF])[\u180B-\u180D\u180F]',
].join('|');
/** Scripts written with the joiners: their letters take a zero-width joiner or non-joiner between them. */
const JOINING = ['Arabic', 'Syriac', 'Nko', 'Mongolian', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya']
  .concat(['Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Myanmar', 'Khmer', 'Tibetan'])
  .map((script) => `\\p{Script_Extensions=${script}}`)
  .join('|');
const JOINING_NEIGHBOUR = `(?=${JOINING})(?!\\p{Default_Ignorable_Code_Point})[\\p{L}\\p{M}]`;
const JOINER_IN_PLACE = [
  // An emoji sequence: an emoji (with its selector or skin tone), the joiner, an emoji.
  '(?<=\\p{Extended_Pictographic}[\uFE0F\\p{Emoji_Modifier}]?)\u200D(?=\\p{Extended_Pictographic})',
  // Between the letters (or signs) of a script written with them: Persian's non-joiner, a Devanagari half form. Not
  // next to a sign that prints as nothing (Khmer's U+17B4, a Mongolian selector): the pair would hide together.
  `(?<=${JOINING_NEIGHBOUR})[\u200C\u200D](?=${JOINING_NEIGHBOUR})`,
].join('|');
const HIDDEN = '[\u0000-\u001f\u007f-\u009f\u2028\u2029\u2800\ufff9-\ufffb\u{13430}-\u{1343f}]|\\p{Default_Ignorable_Code_Point}';
const PATTERN = `(${FLAG}|${SELECTOR_IN_PLACE}|${JOINER_IN_PLACE})|${HIDDEN}`;

/**
 * A hidden character as the escape a reader can see, one `\uXXXX` per UTF-16 unit (`\u202e`; a tag character is
 * two): JSON's own escapes and JavaScript's.
 */
export function codePointEscape(c) {
  return Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
}

/**
 * The text with each hidden character replaced by `show(c)` (its escape by default); what written text needs stays.
 * In JSON text the default escapes are JSON's own: the revealed text parses to the same value.
 */
export function revealHidden(text, show = codePointEscape) {
  return text.replace(new RegExp(PATTERN, 'gu'), (c, kept) => kept ?? show(c));
}
