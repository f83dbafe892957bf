/**
 * Where in a JSON value from outside the first entry that `hit` picks is, written as `a.b[0].c`: for the message of a
 * refusal. The checks that every input pays walk without paths (proto-keys.ts, non-finite-numbers.ts) and call this
 * only once they know there is something to find. Walked without recursion, so no nesting can overflow the stack.
 *
 * @param hit gets each entry's own key (an array item's is its index) and value.
 */
export function firstPath(value: unknown, hit: (key: string, child: unknown) => boolean): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [current, at] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const entries: [string, string, unknown][] = Array.isArray(current)
      ? current.map((item, i) => [String(i), step(at, i), item])
      : Object.keys(current).map((key) => [key, step(at, key), (current as Record<string, unknown>)[key]]);
    for (const [key, path, child] of entries) {
      if (hit(key, child)) return path;
      stack.push([child, path]);
    }
  }
  return undefined;
}

/** A path given as its keys and indices, written as firstPath writes it: `a.b[0].c`. */
export function jsonPathText(segments: readonly (string | number)[]): string {
  return segments.reduce<string>(step, '');
}

/** One key (or an array index) onto a written path. */
function step(at: string, key: string | number): string {
  return typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${key}` : key;
}
