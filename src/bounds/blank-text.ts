/**
 * Whether text says nothing to a reader: it holds only spaces, line breaks and characters that print as nothing
 * (hidden-in-text.ts: zero-width, fillers like U+3164, the braille blank, marks and controls). Written out, not
 * `trim()` or `\s`, whose sets follow the engine's Unicode version: the workflow runs this and must answer the same on
 * every replay.
 */
import { withoutHidden } from './hidden-in-text.js';

const BLANK = /^[\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]*$/;

export function isBlankText(text: string): boolean {
  return BLANK.test(withoutHidden(text));
}

/** Why a run's prompt is refused when it says nothing: the model's first turn would be empty. */
export function blankPromptProblem(prompt: string): string | undefined {
  return isBlankText(prompt) ? 'prompt: it says nothing (only spaces, line breaks or characters that print as nothing)' : undefined;
}
