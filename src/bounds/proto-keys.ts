/**
 * A key named `__proto__` in JSON from outside. JSON.parse keeps it as an ordinary key, but any code that copies the
 * value key by key (zod's records among it) sets the copy's prototype with it instead: the key vanishes, and what it
 * held is inherited by the copy, where a later schema reads it as if it had been sent. Such input is refused whole,
 * never read one way here and another there.
 */
import { firstPath } from './json-path.js';

export function protoKeyPath(value: unknown): string | undefined {
  return holdsProtoKey(value) ? firstPath(value, (key) => key === '__proto__') : undefined;
}

/**
 * Whether `value` holds such a key anywhere: the walk every input pays, so it builds no paths (a run's carried
 * transcript has thousands of keys, and their paths were most of the cost of checking it at every run start).
 */
function holdsProtoKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (!Array.isArray(current) && Object.hasOwn(current, '__proto__')) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current))
      if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}

/** Why `what` is refused, if it holds such a key. Call only on values bounded in depth and size. */
export function protoKeyRefusal(what: string, value: unknown): string | undefined {
  const at = protoKeyPath(value);
  return at === undefined
    ? undefined
    : `The ${what} has a key named __proto__ (at ${at}), which JSON readers do not all read the same way; nothing was taken.`;
}
