/** Keys named twice in one object are found where they are, as JSON.parse reads keys, and nowhere else. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateKey } from './duplicate-keys.js';
import { jsonPathText } from './json-path.js';

describe('duplicateKey', () => {
  it('finds the first key named twice in one object, with the object’s path', () => {
    expect(duplicateKey('{"type":"reject","type":"approve"}')).toEqual({ path: [], key: 'type' });
    const nested = duplicateKey('{"decisions":[{"id":"call-1"},{"id":"call-2","type":"reject","type":"approve"}]}');
    expect(nested).toEqual({ path: ['decisions', 1], key: 'type' });
    expect(jsonPathText(nested!.path)).toBe('decisions[1]');
  });

  it('reads keys as JSON.parse does: escapes name the same key', () => {
    expect(duplicateKey('{"a":1,"\\u0061":2}')).toEqual({ path: [], key: 'a' });
    expect(duplicateKey('{"é":1,"\\u00e9":2}')).toEqual({ path: [], key: 'é' });
  });

  it('finds a repeat under nesting of any depth, which the parsed value no longer shows', () => {
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)},"a":0}`;
    expect(JSON.parse(deep)).toEqual({ a: 0 });
    expect(duplicateKey(deep)).toEqual({ path: [], key: 'a' });
    const inside = `${'['.repeat(50_000)}{"k":1,"k":2}${']'.repeat(50_000)}`;
    expect(duplicateKey(inside)?.path).toHaveLength(50_000);
  });

  it('takes the same key in different objects, and equal values under different keys', () => {
    expect(duplicateKey('{"a":{"id":1},"b":{"id":1},"c":[{"id":1},{"id":1}]}')).toBeUndefined();
    expect(duplicateKey('[1,1,"a","a"]')).toBeUndefined();
    expect(duplicateKey('"a"')).toBeUndefined();
    expect(duplicateKey(' { "a" : "a" , "b" : { "a" : [ "a" , { "a" : 1 } ] } } ')).toBeUndefined();
    expect(duplicateKey('{"a":"x","b":"a","a":1}')).toEqual({ path: [], key: 'a' });
  });

  it('agrees with JSON.parse: a repeat exactly when the parsed object has fewer keys than the text names', () => {
    const key = fc.constantFrom('a', 'b', 'c', '\\u0061', 'é');
    const text: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('1', 'null', '"x"'),
        fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
        fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => `{${entries.map(([k, v]) => `"${k}":${v}`).join(',')}}`),
      ),
    })).value;
    fc.assert(
      fc.property(text, (json) => {
        const repeats = (value: unknown, source: string): boolean => JSON.stringify(value) !== source.replace(/\\u0061/g, 'a');
        expect(duplicateKey(json) !== undefined).toBe(repeats(JSON.parse(json), json));
      }),
    );
  });
});
