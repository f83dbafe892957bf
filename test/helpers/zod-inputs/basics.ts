/** The building blocks of the zod sandbox test's inputs: JSON, near misses of valid strings, numbers, dates. */
import fc from 'fast-check';

export type Arb = fc.Arbitrary<unknown>;

export const json: Arb = fc.jsonValue({ maxDepth: 2 });

/** One small edit to a string, the kind that turns a valid value into an almost valid one. */
function nearMiss(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const char = fc.constantFrom('a', 'Z', '0', '9', '-', '_', '.', '@', '/', ':', '=', '+', ' ', 'é', '\n', '😀');
  return fc.tuple(valid, fc.nat(), char, fc.nat(4)).map(([s, at, c, edit]) => {
    const i = s.length === 0 ? 0 : at % s.length;
    if (edit === 0) return s.slice(0, i) + s.slice(i + 1);
    if (edit === 1) return s.slice(0, i) + c + s.slice(i);
    if (edit === 2) return s.slice(0, i) + c + s.slice(i + 1);
    if (edit === 3) return s.toUpperCase() === s ? s.toLowerCase() : s.toUpperCase();
    return ` ${s}`;
  });
}

/** Valid values half the time, near misses a third, anything else the rest. */
export function inputs(valid: fc.Arbitrary<string>, other: Arb = json): Arb {
  return fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: nearMiss(valid), weight: 4 }, { arbitrary: other, weight: 2 });
}

export const matching = (pattern: RegExp) => inputs(fc.stringMatching(pattern, { size: 'small' }));
export const digits = (length: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length });

export const date = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true });
export const isoDatetime = date.map((d) => d.toISOString());
export const text = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', 'Z', 'é', ' ', '\t', '-', '1', 'ß', '@', 'Å') });

export const number = fc.oneof(
  fc.integer({ min: -20, max: 120 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -40, max: 40 }).map((n) => n / 4),
  fc.integer({ min: -1000, max: 1000 }).map((n) => n / 100),
  fc.constantFrom(0, -0, 2 ** 31, 2 ** 32, -(2 ** 31) - 1, 3.4e38, 3.5e38, Number.MAX_SAFE_INTEGER + 2, 5e-324),
);
export const numeric = fc.oneof({ arbitrary: number, weight: 8 }, { arbitrary: json, weight: 1 }, { arbitrary: text, weight: 1 });
export const word = fc.string({ maxLength: 6, unit: fc.constantFrom('a', 'b', 'x', 'Z', '1', ' ') });
export const smallJson = fc.oneof(word, fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null));
/** Mostly the right kind of value for a field, sometimes anything small. */
export const mostly = <T>(right: fc.Arbitrary<T>) => fc.oneof({ arbitrary: right, weight: 3 }, { arbitrary: smallJson, weight: 1 });
