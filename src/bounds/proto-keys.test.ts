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

  it('finds one wherever it is in JSON built with it, and the path leads to it (property)', () => {
    // JSON text written by hand: a value holding `__proto__` as an own key cannot be built in JS and stringified.
    type Node = { n: number } | { list: Node[] } | { entries: [string, Node][] };
    const { node } = fc.letrec<{ node: Node }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.integer().map((n) => ({ n })),
        fc.array(tie('node'), { maxLength: 4 }).map((list) => ({ list })),
        fc
          // Keys unique per object: JSON.parse keeps only the last of a repeated key.
          .uniqueArray(fc.tuple(fc.constantFrom('a', 'b', '__proto__'), tie('node')), { maxLength: 3, selector: ([key]) => key })
          .map((entries) => ({ entries })),
      ),
    }));
    const text = (node: Node): string =>
      'n' in node
        ? String(node.n)
        : 'list' in node
          ? `[${node.list.map(text).join(',')}]`
          : `{${node.entries.map(([key, value]) => `${JSON.stringify(key)}:${text(value)}`).join(',')}}`;
    fc.assert(
      fc.property(node, (tree) => {
        const json = text(tree);
        const value: unknown = JSON.parse(json);
        const at = protoKeyPath(value);
        expect(at !== undefined).toBe(json.includes('"__proto__":'));
        if (at === undefined) return;
        const steps = at.match(/[^.[\]]+/g)!;
        const holder = steps.slice(0, -1).reduce<unknown>((v, step) => (v as Record<string, unknown>)[step], value);
        expect(steps.at(-1)).toBe('__proto__');
        expect(Object.hasOwn(holder as object, '__proto__')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
