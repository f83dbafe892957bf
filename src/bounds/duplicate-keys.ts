/**
 * JSON text that names a key twice in one object. JSON.parse keeps the last, while a reader before us (a proxy, a
 * log, another language's parser) may keep the first, so the two would disagree about what was sent; RFC 8259 leaves
 * it undefined and I-JSON (RFC 7493) forbids it. Text from outside that does is refused whole, as a `__proto__` key
 * is (proto-keys.ts). Keys are compared as JSON.parse reads them: `"a"` and `"\u0061"` are the same key.
 *
 * Call only on text JSON.parse took and whose depth is bounded: the scanner (jsonc-parser's, which parses no
 * value) recurses once per level of nesting.
 */
import { visit } from 'jsonc-parser';

export interface DuplicateKey {
  /** The object's place in the value: keys and indices, empty for the top level. */
  path: (string | number)[];
  key: string;
}

/** The first key that repeats within its object, or undefined. */
export function duplicateKey(text: string): DuplicateKey | undefined {
  const open: Set<string>[] = [];
  let found: DuplicateKey | undefined;
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (key, _offset, _length, _line, _column, path) => {
      const keys = open.at(-1)!;
      if (found === undefined && keys.has(key)) found = { path: path(), key };
      keys.add(key);
    },
  });
  return found;
}
