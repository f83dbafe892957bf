import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonFiniteNumberPath } from './non-finite-numbers.js';

describe('numbers JSON cannot hold, in JSON from outside', () => {
  it('finds one at any depth, and says where', () => {
    expect(nonFiniteNumberPath(JSON.parse('1e400'))).toBe('the input');
    expect(nonFiniteNumberPath(JSON.parse('{"a": {"b": [1, -1e400]}}'))).toBe('a.b[1]');
    expect(nonFiniteNumberPath(JSON.parse('[{"x.y": 1e400}]'))).toBe('[0].x.y');
  });

  it('lets every value JSON can hold through (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(nonFiniteNumberPath(JSON.parse(JSON.stringify(value)))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
