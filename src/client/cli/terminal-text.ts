/**
 * Text from outside (a run's prompt, which any API token holder sets; a call's description, written from arguments
 * the model chose; tool, approver and call names; messages; the model's output) made safe to print on an approver's
 * terminal. Printed raw, control characters in it could erase or rewrite what the approver reads before deciding:
 * an escape sequence ("\u001b[2K" clears the line, "\u001b]0;…\u0007" sets the window title), "\r" going back to
 * overwrite the line. Each character the shared rule names (src/contract/hidden-characters.js: controls, bidi
 * controls, what prints as nothing, tag characters outside a flag) becomes a visible escape such as "\u001b", so the
 * approver sees that something odd is there; a newline and a tab as below. Colours the CLI adds itself go around the
 * result, never through here. JSON output (--json) escapes the same characters in JSON's own way (output.ts, `jsonText`).
 */
import { codePointEscape, revealHidden } from '../../contract/hidden-characters.js';

interface TextOptions {
  /** A newline and a tab stay (transcript text, a description); otherwise a newline shows as ⏎. */
  multiline?: boolean;
  /**
   * Put after each newline kept, so the text's later lines cannot pass for the CLI's own: a model's reply that
   * writes "decided: approve …" on a line of its own is shown indented under the line that quotes it.
   */
  indent?: string;
  /**
   * Characters of the text shown; the rest is left out with a note that says how much. A prompt or a message may be
   * 100,000 characters, and each control character prints as six: `hitl show` shows a preview, `--json` the whole.
   */
  maxChars?: number;
  /** What shows the text whole, named in that note. @default '--json' */
  seeWhole?: string;
}

export function terminalText(text: string, options?: TextOptions): string;
export function terminalText(text: string | undefined, options?: TextOptions): string | undefined;
export function terminalText(text: string | undefined, options: TextOptions = {}): string | undefined {
  const kept = text === undefined || options.maxChars === undefined ? text : cutChars(text, options.maxChars);
  const shown =
    kept === undefined
      ? undefined
      : revealHidden(kept, (c) => {
          if (options.multiline && (c === '\n' || c === '\t')) return c;
          if (c === '\n') return '⏎';
          if (c === '\t') return '\\t';
          if (c === '\r') return '\\r';
          return codePointEscape(c);
        });
  const indented = options.multiline && options.indent ? shown?.replaceAll('\n', `\n${options.indent}`) : shown;
  // Added after the escaping: the note is the CLI's own words.
  return text !== undefined && kept !== undefined && kept.length < text.length
    ? `${indented}… [${text.length - kept.length} more characters; ${options.seeWhole ?? '--json'} shows them]`
    : indented;
}

/** `text` up to `max` UTF-16 units, never ending inside a surrogate pair. */
function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}
