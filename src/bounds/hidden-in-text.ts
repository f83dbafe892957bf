/**
 * Whether a value an approver or a gate would read holds a character that prints as nothing or rewrites the text
 * around it: controls other than tab and line breaks, soft hyphen, zero-width and directional marks, bidi embeddings
 * and isolates, word joiners and invisible operators, fillers, variation selectors, tag characters, the BOM, format
 * controls of other scripts. "Re\u00adfund" reads as Refund to people and is not "refund" to a `matches` condition.
 *
 * Written out, not Unicode property escapes, for the same reason as identity-names.ts: the workflow runs this, and
 * must answer the same on every replay, whatever Unicode version the engine has. It also counts the joiners and
 * selectors that screens leave in place where written text needs them (an emoji sequence, a Persian word): a gate
 * fails safe.
 */
// Every character the screens' rule escapes wherever it stands (src/contract/hidden-characters.js: Unicode 15's
// default-ignorable code points, the controls, the line and paragraph separators, the braille blank, the interlinear
// annotation marks, the Egyptian hieroglyph format controls), tab and line breaks apart; the astral ones as surrogate
// pairs: shorthand format controls (U+1BCA0-1BCA3), musical formatting (U+1D173-1D17A), hieroglyph format controls
// (U+13430-1343F), tags and the rest of plane 14's ignorables (U+E0000-E0FFF). A test holds the two rules together.
const HIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u2800\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]|\uD82F[\uDCA0-\uDCA3]|\uD834[\uDD73-\uDD7A]|\uD80D[\uDC30-\uDC3F]|[\uDB40-\uDB43][\uDC00-\uDFFF]/;

const EVERY_HIDDEN = new RegExp(HIDDEN.source, 'g');

/** `text` without its hidden characters: what is left of it for a reader (blank-text.ts). */
export function withoutHidden(text: string): string {
  return text.replace(EVERY_HIDDEN, '');
}

/** The path (`subject`, `items.0.name`) of the first string in `value`, or key, that holds a hidden character. */
export function hiddenCharacterPath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return HIDDEN.test(value) ? path.join('.') || 'the value' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (HIDDEN.test(key)) return [...path, key].join('.');
    const found = hiddenCharacterPath(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
