import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPrefixLength } from './json-prefix.js';
import { utf8Length } from './truncate.js';

describe('jsonPrefixLength', () => {
  it('counts the leading items whose JSON array fits, to the byte', () => {
    expect(jsonPrefixLength(['ab', 'cd'], 11)).toBe(2); // ["ab","cd"]
    expect(jsonPrefixLength(['ab', 'cd'], 10)).toBe(1);
    expect(jsonPrefixLength(['é'], 6)).toBe(1); // ["é"] is 6 bytes
    expect(jsonPrefixLength(['é'], 5)).toBe(0);
    expect(jsonPrefixLength([], 0)).toBe(0);
  });

  it('is the longest prefix within the bound, for any items', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), fc.nat(400), (items, max) => {
        const n = jsonPrefixLength(items, max);
        if (n > 0) expect(utf8Length(JSON.stringify(items.slice(0, n)))).toBeLessThanOrEqual(max);
        if (n < items.length) expect(utf8Length(JSON.stringify(items.slice(0, n + 1)))).toBeGreaterThan(max);
      }),
    );
  });
});
