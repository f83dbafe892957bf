/**
 * The one way text is shortened: by bytes, never splitting a character, ending with a marker that says how much was
 * cut. Two measures: UTF-8 (text sent as it is), and the bytes a string takes inside a JSON payload, which is what
 * Temporal's limits count of the text a run keeps (its escapes included: a control character is six bytes there).
 */
import { cutMarker } from '../contract/limits.js';

/** UTF-8 length of a string without allocating (the sandbox has no Buffer). */
export function utf8Length(text: string): number {
  return measure(text, utf8CharBytes);
}

/**
 * Bytes `text` takes inside a JSON string (quotes excluded), as JSON.stringify writes it and a payload holds it: UTF-8,
 * with `"` and `\` and \b \t \n \f \r two bytes each, every other control character and a lone surrogate six
 * (`\u0001`). Hostile text made of control characters is six times its UTF-8 here.
 */
export function jsonStringBytes(text: string): number {
  return measure(text, jsonCharBytes);
}

/** The sum of `charBytes` over the text's characters (a surrogate pair, size 4, is one). */
function measure(text: string, charBytes: (text: string, i: number) => number): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const size = charBytes(text, i);
    bytes += size;
    if (size === 4) i++;
  }
  return bytes;
}

/** The JSON bytes of the character at `i`; 4 means a surrogate pair, which takes `i + 1` too. */
function jsonCharBytes(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 6;
  }
  return code >= 0xdc00 && code <= 0xdfff ? 6 : 3;
}

/** The UTF-8 bytes of the character at `i`; 4 means a surrogate pair (as `utf8Length` counts one). */
function utf8CharBytes(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 4 : 3;
}

/** `text` if it fits in `maxBytes` of UTF-8, else its longest prefix that fits together with the marker. */
export function truncateBytes(text: string, maxBytes: number): string {
  return cut(text, maxBytes, utf8Length(text), utf8CharBytes);
}

/** `text` if it fits in `maxBytes` of a JSON payload (`jsonStringBytes`), else its longest prefix that fits with the marker. */
export function truncateJsonBytes(text: string, maxBytes: number): string {
  return cut(text, maxBytes, jsonStringBytes(text), jsonCharBytes);
}

/**
 * `truncateBytes` for a text that may end with the marker of an earlier cut (a tool's result, cut by its activity,
 * then to its step's share): the new marker counts what both cuts took, not the first marker's bytes and a part.
 */
export function recutBytes(text: string, maxBytes: number): string {
  const earlier = EARLIER_CUT.exec(text);
  if (!earlier || utf8Length(text) <= maxBytes) return truncateBytes(text, maxBytes);
  const body = text.slice(0, earlier.index);
  return cut(body, maxBytes, utf8Length(body), utf8CharBytes, Number(earlier[1]));
}

/** A marker `cutMarker` wrote, at the end of a text. */
const EARLIER_CUT = new RegExp(`${escapeRegExp(cutMarker(0)).replace('0', '(\\d{1,15})')}$`);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** @param cutBefore bytes an earlier cut took from the end of `text`: the marker counts them too */
function cut(text: string, maxBytes: number, total: number, charBytes: (text: string, i: number) => number, cutBefore = 0): string {
  if (total <= maxBytes && cutBefore === 0) return text;
  const marker = cutMarker(total + cutBefore);
  const budget = Math.max(0, maxBytes - utf8Length(marker));
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const size = charBytes(text, end);
    if (bytes + size > budget) break;
    bytes += size;
    end += size === 4 ? 2 : 1;
  }
  return `${text.slice(0, end)}${cutMarker(total + cutBefore - bytes)}`;
}

/** For one-line summaries (memo, the Temporal UI): at most `maxChars` characters, with an ellipsis. */
export function truncateChars(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
