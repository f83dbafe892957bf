/**
 * Text from outside (a run's prompt, which any API token holder sets; a call's description, written from arguments
 * the model chose; tool, approver and call names; messages; the model's output) made safe to print on an approver's
 * terminal. Printed raw, control characters in it could erase or rewrite what the approver reads before deciding:
 * an escape sequence ("\u001b[2K" clears the line, "\u001b]0;…\u0007" sets the window title), "\r" going back to
 * overwrite the line. Each character the shared rule names (src/contract/hidden-characters.js: controls, bidi
 * controls, what prints as nothing, tag characters outside a flag) becomes a visible escape such as "\u001b", so the
 * approver sees that something odd is there; a newline and a tab as below. Colours the CLI adds itself go around the
 * result, never through here. JSON output (--json) does not come here: JSON.stringify escapes what programs need.
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
}

export function terminalText(text: string, options?: TextOptions): string;
export function terminalText(text: string | undefined, options?: TextOptions): string | undefined;
export function terminalText(text: string | undefined, options: TextOptions = {}): string | undefined {
  const shown =
    text === undefined
      ? undefined
      : revealHidden(text, (c) => {
          if (options.multiline && (c === '\n' || c === '\t')) return c;
          if (c === '\n') return '⏎';
          if (c === '\t') return '\\t';
          if (c === '\r') return '\\r';
          return codePointEscape(c);
        });
  return options.multiline && options.indent ? shown?.replaceAll('\n', `\n${options.indent}`) : shown;
}
