/**
 * Whether a value an approver or a gate would read holds a character that prints as nothing or rewrites the text
 * around it: controls other than tab and line breaks, soft hyphen, zero-width and directional marks, bidi embeddings
 * and isolates, word joiners and invisible operators, fillers, variation selectors, tag characters, the BOM. "Re\u00adfund"
 * reads as Refund to people and is not "refund" to a `matches` condition.
 *
 * Written out, not Unicode property escapes, for the same reason as identity-names.ts: the workflow runs this, and
 * must answer the same on every replay, whatever Unicode version the engine has. What screens show as escapes
 * (src/contract/hidden-characters.js) is the wider, display-side rule.
 */
const HIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDDEF]/;

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
