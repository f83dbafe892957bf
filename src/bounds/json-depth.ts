/**
 * How deep a JSON value nests, counted without recursion: a hostile value nested thousands deep must be refused
 * before anything recursive (hashing, schema checks, serialisation) overflows the stack on it.
 */
export const MAX_JSON_DEPTH = 64;

export function jsonDepthExceeds(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
