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
// Spaces that show as blank: ASCII, no-break, ogham, the en quad to hair space range, narrow no-break, medium
// mathematical, ideographic.
const BLANK_AT_EDGE = /^[\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]|[\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]$/;
const KIND_PREFIX = /^(?:user|group):/;

export function isIdentityName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= IDENTITY_NAME_MAX_LENGTH &&
    !INVISIBLE.test(name) &&
    !BLANK_AT_EDGE.test(name) &&
    !KIND_PREFIX.test(name)
  );
}
