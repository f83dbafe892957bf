/**
 * JSON text that names a key twice in one object. JSON.parse keeps the last, while a reader before us (a proxy, a
 * log, another language's parser) may keep the first, so the two would disagree about what was sent; RFC 8259 leaves
 * it undefined and I-JSON (RFC 7493) forbids it. Text from outside that does is refused whole, as a `__proto__` key
 * is (proto-keys.ts). Keys are compared as JSON.parse reads them: `"a"` and `"\u0061"` are the same key.
 *
 * Call only on text JSON.parse took. It walks jsonc-parser's token scanner (which unescapes strings as JSON.parse
 * does) with a stack of its own, so no nesting can overflow the call stack: a key named twice drops the value of the
 * first, so the parsed value's depth says nothing about the text's.
 */
import { createScanner } from 'jsonc-parser';

export interface DuplicateKey {
  /** The object's place in the value: keys and indices, empty for the top level. */
  path: (string | number)[];
  key: string;
}

type Open = { keys: Set<string>; key?: string; expectsKey: boolean } | { index: number };

/** The first key that repeats within its object, or undefined. */
export function duplicateKey(text: string): DuplicateKey | undefined {
  const scanner = createScanner(text, true);
  const open: Open[] = [];
  // Tokens are told apart by their first character: the text is JSON, so each is one of these or a scalar.
  for (scanner.scan(); scanner.getTokenOffset() < text.length; scanner.scan()) {
    const top = open.at(-1);
    switch (text[scanner.getTokenOffset()]) {
      case '{':
        open.push({ keys: new Set(), expectsKey: true });
        break;
      case '[':
        open.push({ index: 0 });
        break;
      case '}':
      case ']':
        open.pop();
        break;
      case ',':
        if (top && 'keys' in top) top.expectsKey = true;
        else if (top) top.index++;
        break;
      case '"':
        if (top && 'keys' in top && top.expectsKey) {
          const key = scanner.getTokenValue();
          if (top.keys.has(key)) return { path: open.slice(0, -1).map((o) => ('keys' in o ? o.key! : o.index)), key };
          top.keys.add(key);
          top.key = key;
          top.expectsKey = false;
        }
        break;
    }
  }
  return undefined;
}
