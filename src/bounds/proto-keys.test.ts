import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { protoKeyPath, protoKeyRefusal } from './proto-keys.js';

describe('__proto__ keys in JSON from outside', () => {
  it('finds one at any depth, and says where', () => {
    expect(protoKeyPath(JSON.parse('{"a": 1, "__proto__": {"amount": 5}}'))).toBe('__proto__');
    expect(protoKeyPath(JSON.parse('{"decisions": [{"id": "c", "args": {"__proto__": {}}}]}'))).toBe('decisions[0].args.__proto__');
    expect(protoKeyRefusal('decision input', JSON.parse('[{"__proto__": 1}]'))).toBe(
      'The decision input has a key named __proto__ (at [0].__proto__), which JSON readers do not all read the same way; nothing was taken.',
    );
  });

  it('lets every other value through, keys like constructor and prototype included (property)', () => {
    expect(protoKeyPath({ constructor: 1, prototype: { toString: 2 }, __proto__x: 3 })).toBeUndefined();
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(protoKeyPath(JSON.parse(text))).toEqual(text.includes('"__proto__":') ? expect.any(String) : undefined);
      }),
      { numRuns: 300 },
    );
  });
});
