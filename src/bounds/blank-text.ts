/**
 * Whether text says nothing to a reader: it holds only spaces, line breaks and zero-width characters. Written out,
 * not `trim()` or `\s`, whose sets follow the engine's Unicode version: the workflow runs this and must answer the
 * same on every replay (as hidden-in-text.ts).
 */
const BLANK = /^[\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200D\u2028\u2029\u202F\u205F\u2060\u3000\uFEFF]*$/;

export function isBlankText(text: string): boolean {
  return BLANK.test(text);
}

/** Why a run's prompt is refused when it says nothing: the model's first turn would be empty. */
export function blankPromptProblem(prompt: string): string | undefined {
  return isBlankText(prompt) ? 'prompt: it says nothing (only spaces, line breaks or zero-width characters)' : undefined;
}
