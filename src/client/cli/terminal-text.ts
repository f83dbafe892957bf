/**
 * Text from outside (a run's prompt, which any API token holder sets; a call's description, written from arguments
 * the model chose; tool, approver and call names; messages; the model's output) made safe to print on an approver's
 * terminal. Printed raw, control characters in it could erase or rewrite what the approver reads before deciding:
 * an escape sequence ("\u001b[2K" clears the line, "\u001b]0;…\u0007" sets the window title), "\r" going back to
 * overwrite the line, a C1 control (U+009B is a CSI on some terminals) or a bidi control (U+202E shows the text
 * after it reversed). Each becomes a visible escape such as "\u001b", so the approver sees that something odd is
 * there; every other character (any script, any emoji) is left alone. Colours the CLI adds itself go around the
 * result, never through here. JSON output (--json) does not come here: JSON.stringify escapes what programs need.
 */

/** C0 controls, DEL, C1 controls, and the bidi embeddings, overrides, isolates and marks. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `multiline`: a newline and a tab stay (transcript text, a description); otherwise a newline shows as ⏎. */
export function terminalText(text: string, options?: { multiline?: boolean }): string;
export function terminalText(text: string | undefined, options?: { multiline?: boolean }): string | undefined;
export function terminalText(text: string | undefined, options: { multiline?: boolean } = {}): string | undefined {
  return text?.replace(CONTROLS, (c) => {
    if (options.multiline && (c === '\n' || c === '\t')) return c;
    if (c === '\n') return '⏎';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
