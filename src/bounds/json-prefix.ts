import { utf8Length } from './truncate.js';

/**
 * How many of `items`, from the first, fit as a JSON array in `maxBytes` of UTF-8: for a value that must stay within
 * a size the server enforces (a search attribute value, a signal's payload), cut at an item rather than inside one.
 */
export function jsonPrefixLength(items: readonly unknown[], maxBytes: number): number {
  // `[`, then each item and the comma or `]` after it.
  let bytes = 1;
  for (let i = 0; i < items.length; i++) {
    bytes += utf8Length(JSON.stringify(items[i])) + 1;
    if (bytes > maxBytes) return i;
  }
  return items.length;
}
