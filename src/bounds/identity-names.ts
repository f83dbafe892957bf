/**
 * A person's or a group's name, as policies, four eyes and quorums compare it: exactly, so `alice ` or `alice` with
 * an invisible character in it would count as another approver than `alice`, and look the same in every view.
 * Wherever people are named (API tokens; the CLI's `--as`, `--group`, `--requested-by` and `--from`; a decision's
 * `approver` and `groups`, and the identity a signed decision carries, in runs since patch set 13) a name is refused
 * unless it is at most 200 characters, has no white space around it, holds no control, format (zero-width, bidi) or
 * line-separator character, and does not start with `user:` or `group:`, which policies use to say which kind of
 * approver they mean (src/policy/may-decide.ts).
 *
 * No zod and no Unicode property escapes: the decision planner runs this in the workflow sandbox, where it must
 * answer the same on every replay, and property tables change with the engine's Unicode version. The classes below
 * are written out.
 */
/** The same limit as a decision's `approver`. */
export const IDENTITY_NAME_MAX_LENGTH = 200;

export const IDENTITY_NAME_RULE = `a name is at most ${IDENTITY_NAME_MAX_LENGTH} characters, with no white space around it, no control or invisible characters, and no user: or group: prefix`;

// C0 and C1 controls and DEL; soft hyphen, Arabic letter mark, Mongolian vowel separator, zero-width and directional
// marks, line and paragraph separators, bidi embeddings and isolates, word joiner and invisible operators, the BOM
// and interlinear annotation characters.
const INVISIBLE = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]/;
// More that show nothing, refused everywhere but in runs before patch set 14 (`everyHidden`): the combining grapheme
// joiner, Hangul fillers, Khmer inherent vowels, Mongolian variation selectors, the braille blank, variation
// selectors, Arabic and Syriac marks that show nothing alone, Kaithi number signs, musical formatting characters,
// tag characters and the variation selectors supplement (U+E0000–E01EF), and lone surrogates. Matched on UTF-16 code
// units, so astral ones are written as surrogate pairs.
const MORE_INVISIBLE =
  /[\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u0600-\u0605\u06DD\u070F\u08E2]|\uD804[\uDCBD\uDCCD]|\uD834[\uDD73-\uDD7A]|\uDB40[\uDC00-\uDDEF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Spaces that show as blank: ASCII, no-break, ogham, the en quad to hair space range, narrow no-break, medium
// mathematical, ideographic.
const BLANK_AT_EDGE = /^[\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]|[\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]$/;
const KIND_PREFIX = /^(?:user|group):/;

/** @param options.everyHidden refuse MORE_INVISIBLE too, as everything since patch set 14 does. @default true */
export function isIdentityName(name: string, options: { everyHidden?: boolean } = {}): boolean {
  const { everyHidden = true } = options;
  return (
    name.length > 0 &&
    name.length <= IDENTITY_NAME_MAX_LENGTH &&
    !INVISIBLE.test(name) &&
    !(everyHidden && MORE_INVISIBLE.test(name)) &&
    !BLANK_AT_EDGE.test(name) &&
    !KIND_PREFIX.test(name)
  );
}
