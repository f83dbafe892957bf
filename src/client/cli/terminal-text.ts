/**
 * Text from outside (a run's prompt, which any API token holder sets; a call's description, written from arguments
 * the model chose; tool, approver and call names; messages; the model's output) made safe to print on an approver's
 * terminal. Printed raw, control characters in it could erase or rewrite what the approver reads before deciding:
 * an escape sequence ("\u001b[2K" clears the line, "\u001b]0;…\u0007" sets the window title), "\r" going back to
 * overwrite the line, a C1 control (U+009B is a CSI on some terminals) or a bidi control (U+202E shows the text
 * after it reversed). Each becomes a visible escape such as "\u001b", so the approver sees that something odd is
 * there. So do the characters that print as nothing (a zero-width space, a word joiner, a byte order mark, a soft
 * hyphen) and the line and paragraph separators: "ali\u200bce" is not alice, and should not look like her. Every
 * other character (any script, any emoji, with its joiners) is left alone. Colours the CLI adds itself go around the
 * result, never through here. JSON output (--json) does not come here: JSON.stringify escapes what programs need.
 */

/**
 * C0 controls, DEL, C1 controls, the bidi embeddings, overrides, isolates and marks, and the invisible: soft hyphen,
 * combining grapheme joiner, Hangul fillers (blank look-alikes), Mongolian vowel separator, zero-width space, line and
 * paragraph separators, word joiner and invisible operators, the deprecated format characters, byte order mark,
 * interlinear annotation marks. Not the zero-width (non-)joiners and variation selectors, which emoji and scripts
 * need, nor the tag characters (U+E0000 on), which flag emoji need.
 */
const CONTROLS =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]/g;

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
  const shown = text?.replace(CONTROLS, (c) => {
    if (options.multiline && (c === '\n' || c === '\t')) return c;
    if (c === '\n') return '⏎';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return options.multiline && options.indent ? shown?.replaceAll('\n', `\n${options.indent}`) : shown;
}
