/**
 * How deep a JSON value nests, counted without recursion: a hostile value nested thousands deep must be refused
 * before anything recursive (hashing, schema checks, serialisation) overflows the stack on it.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep a run's start input may nest (runs since patch set 29): its context to MAX_JSON_DEPTH below it, and its
 * policy's conditions (`not`, `all`, `any`) far deeper than any policy needs. A `when` of 3,000 nested `not`s, 24 KB
 * and inside the run policy's size limit, overflowed the stack of the schema that reads it, and failed the run's first
 * workflow task on every retry.
 */
export const MAX_START_INPUT_DEPTH = 128;

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

/** Why a run's start input is refused for its depth (MAX_START_INPUT_DEPTH), if it is: the workflow's and the clients' words. */
export function startInputDepthProblem(input: unknown): string | undefined {
  return jsonDepthExceeds(input, MAX_START_INPUT_DEPTH) ? `the start input nests deeper than ${MAX_START_INPUT_DEPTH} levels` : undefined;
}
