/** Reads `a.b.0.c` out of tool arguments; undefined when any step is missing. */
export function readArgPath(args: unknown, path: string): unknown {
  let value: unknown = args;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
