/**
 * A number JSON cannot hold in a value from outside: JSON text reads 1e400 as Infinity. No call's arguments can hold
 * one, and their hash (RFC 8785, src/policy/args-hash.ts) throws on it, so such input is refused whole.
 */
import { firstPath } from './json-path.js';

const nonFinite = (value: unknown) => typeof value === 'number' && !Number.isFinite(value);

/** Where the first such number is (`the input` when it is the value itself); undefined when there is none. */
export function nonFiniteNumberPath(value: unknown): string | undefined {
  if (nonFinite(value)) return 'the input';
  return holdsNonFinite(value) ? firstPath(value, (_key, child) => nonFinite(child)) : undefined;
}

/** Whether `value` holds one anywhere: the walk every decision pays, so it builds no paths. */
function holdsNonFinite(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const current = stack.pop();
    if (nonFinite(current)) return true;
    if (current !== null && typeof current === 'object')
      for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push(child);
  }
  return false;
}
