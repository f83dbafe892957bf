/**
 * The one way text is shortened: by UTF-8 bytes (what Temporal's limits count), never splitting a character,
 * ending with a marker that says how much was cut.
 */
import { cutMarker } from '../contract/limits.js';

/** UTF-8 length of a string without allocating (the sandbox has no Buffer). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** `text` if it fits in `maxBytes`, else its longest prefix that fits together with the marker. */
export function truncateBytes(text: string, maxBytes: number): string {
  const total = utf8Length(text);
  if (total <= maxBytes) return text;
  const marker = cutMarker(total);
  const budget = Math.max(0, maxBytes - utf8Length(marker));
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && end + 1 < text.length;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > budget) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  return `${text.slice(0, end)}${cutMarker(total - bytes)}`;
}

/** For one-line summaries (memo, the Temporal UI): at most `maxChars` characters, with an ellipsis. */
export function truncateChars(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
