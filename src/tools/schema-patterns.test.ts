import { describe, expect, it } from 'vitest';
import { checkJsonSchema, schemaFaults } from './json-schema-check.js';
import { MAX_SCHEMA_PATTERN_PROGRAM, linearPatternProblem, withLinearPatterns } from './schema-patterns.js';

const backtracking = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };

describe('schema patterns by RE2', () => {
  it("checks a value against a pattern JavaScript's engine backtracks on, in linear time", () => {
    const started = performance.now();
    // 34 a's and a mismatch: minutes of backtracking for RegExp, so this test fails by its timeout without RE2.
    expect(checkJsonSchema(backtracking, { s: `${'a'.repeat(34)}!` })).toEqual({
      ok: false,
      problems: ['s: String does not match pattern.'],
    });
    expect(checkJsonSchema(backtracking, { s: 'a'.repeat(60_000) })).toEqual({ ok: true });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('decides as RegExp does on the patterns schemas use', () => {
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]{2}\\d{2}$' }, word: { type: 'string', pattern: '^\\p{L}+$' } },
      patternProperties: { '^x-': { type: 'boolean' } },
    };
    for (const value of [
      { code: 'AB12' },
      { code: 'ab12' },
      { code: 'AB123' },
      { word: 'héllo' },
      { word: 'a1' },
      { 'x-a': 1 },
      { 'x-a': true },
    ])
      expect(checkJsonSchema(schema, value), JSON.stringify(value)).toEqual(checkJsonSchema(schema, value, { mode: 'backtracking' }));
  });

  it('bounds the work of one check, whatever the schema and the value: counted, so a replay decides the same', () => {
    const bounded = (schema: Record<string, unknown>, value: unknown) => {
      const started = performance.now();
      const checked = checkJsonSchema(schema, value);
      return { checked, ms: performance.now() - started };
    };
    // A tester's: 22 levels of a part named twice, 2 KiB of schema; 52 s over {"s": "abc"} when unbounded.
    const defs: Record<string, unknown> = { d0: { type: 'string', pattern: '^[a-z]+$' } };
    for (let k = 1; k <= 22; k++) defs[`d${k}`] = { allOf: [{ $ref: `#/$defs/d${k - 1}` }, { $ref: `#/$defs/d${k - 1}` }] };
    const doubling = { type: 'object', $defs: defs, properties: { s: { $ref: '#/$defs/d22' } } };
    expect(schemaFaults(doubling)).toEqual([]);
    const deep = bounded(doubling, { s: 'abc' });
    expect(deep.checked).toEqual({
      ok: false,
      problems: ["the tool's schema could not be applied (checking these arguments against it would take too long)"],
    });
    expect(deep.ms).toBeLessThan(5_000);
    // 16,000 one-letter items under one pattern: each was compiled anew (4.8 s); now once, and the check passes.
    const tags = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', pattern: '^(?:[a-z0-9]|[A-Z_-]){1,120}$' } } },
    };
    const many = bounded(tags, { tags: Array.from({ length: 16_000 }, () => 'a') });
    expect(many.checked).toEqual({ ok: true });
    expect(many.ms).toBeLessThan(2_000);
    // The same pattern over long text, met by many parts: refused once its work passes the bound.
    const parts = { type: 'object', properties: { s: { allOf: Array.from({ length: 60 }, () => ({ pattern: '^[a-z]{1,100}' })) } } };
    expect(checkJsonSchema(parts, { s: 'a'.repeat(60_000) })).toEqual({
      ok: false,
      problems: ["the tool's schema could not be applied (its patterns would take too long over these arguments)"],
    });
  });

  it('counts the value’s work too, and stops a part at its first failing item (patch set 29, `bounded`)', () => {
    const timed = (schema: Record<string, unknown>, value: unknown) => {
      const started = performance.now();
      const checked = checkJsonSchema(schema, value);
      return { checked, ms: performance.now() - started };
    };
    // A tester's: 700 references to additionalProperties:false over 8,000 keys: a problem built for each key in each
    // part, 1.6 GB and 5.4 s (the validator's short-circuit does not stop that loop). The value's count does.
    const keys = Object.fromEntries(Array.from({ length: 8_000 }, (_, i) => [i.toString(36), 0]));
    const closed = (parts: number) => ({
      $defs: { n: { additionalProperties: false } },
      properties: { a: { allOf: Array.from({ length: parts }, () => ({ $ref: '#/$defs/n' })) } },
    });
    const errors = timed(closed(700), { a: keys });
    expect(errors.checked).toEqual({
      ok: false,
      problems: ["the tool's schema could not be applied (checking these arguments against it would take too long)"],
    });
    // Wall time, bounded at half what the unbounded check took: the bounded one took 1,005 ms in a clean-clone CI, with
    // the other test files on both cores, and 1,043 ms beside one (its CPU time, which counts the GC's threads too,
    // was 1.0 to 1.3 s: no steadier).
    expect(errors.ms).toBeLessThan(2_700);
    const once = timed(closed(1), { a: keys }).checked;
    expect(once.ok === false && once.problems.slice(0, 2)).toEqual([
      'a: Property "0" does not match additional properties schema.',
      'a: Property "1" does not match additional properties schema.',
    ]);
    // A tester's: 2^13 references to one part, over one 64 KiB key: 3.1 s, and then valid. Each visit pays the key.
    const defs: Record<string, unknown> = { d13: { additionalProperties: true } };
    for (let i = 0; i < 13; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    const tree = { $defs: defs, $ref: '#/$defs/d0' };
    expect(schemaFaults(tree)).toEqual([]);
    const longKey = timed(tree, { [' '.repeat(65_000)]: 0 });
    expect(longKey.checked).toEqual({
      ok: false,
      problems: ["the tool's schema could not be applied (checking these arguments against it would take too long)"],
    });
    expect(longKey.ms).toBeLessThan(1_500);
    // The same schema over short keys is checked as before.
    expect(timed(tree, { a: 1, b: 'x' }).checked).toEqual({ ok: true });
    // A tester's: a 15 KiB const, its message copied for each of 32,000 failing items (1.2 s, a gigabyte); now once.
    const big = { properties: { a: { items: { const: 'x'.repeat(15 * 1024) } } } };
    const copies = timed(big, { a: new Array(32_000).fill(0) });
    expect(copies.checked.ok).toBe(false);
    expect(copies.checked.ok === false && copies.checked.problems).toHaveLength(1);
    expect(copies.ms).toBeLessThan(700);
  });

  it('reads a frozen value as any other, and never changes the value it checks', () => {
    const schema = {
      type: 'object',
      required: ['items'],
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false } },
      },
    };
    const deepFreeze = <T>(v: T): T => {
      if (v && typeof v === 'object') for (const part of Object.values(v)) deepFreeze(part);
      return Object.freeze(v);
    };
    for (const value of [
      { items: [{ n: 1 }, { n: 2 }] },
      { items: [{ n: 1 }, { n: 'two' }] },
      { items: [{ m: 1 }] },
      { length: 1, items: [] },
    ]) {
      const text = JSON.stringify(value);
      const expected = checkJsonSchema(schema, JSON.parse(text), { mode: 'linear' });
      expect(checkJsonSchema(schema, deepFreeze(JSON.parse(text))), text).toEqual(
        expected.ok ? expected : { ok: false, problems: [expected.problems[0]] },
      );
      expect(JSON.stringify(value)).toBe(text);
    }
  });

  it("leaves format and uniqueItems to the tool: the validator's own regular expressions and pairwise compares are not counted", () => {
    const started = performance.now();
    // format "url": hours of backtracking at 40 characters; an annotation, as JSON Schema 2020-12 has it.
    expect(
      checkJsonSchema({ type: 'object', properties: { u: { type: 'string', format: 'url' } } }, { u: `http://${'a'.repeat(40)}!` }),
    ).toEqual({
      ok: true,
    });
    const unique = {
      $defs: { u: { uniqueItems: true } },
      type: 'object',
      properties: { a: { allOf: Array.from({ length: 50 }, () => ({ $ref: '#/$defs/u' })) } },
    };
    expect(checkJsonSchema(unique, { a: Array.from({ length: 12_000 }, (_, i) => i % 2) })).toEqual({ ok: true });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('gives RegExp back after the check, also when the check throws', () => {
    const engine = RegExp;
    expect(() =>
      withLinearPatterns({}, () => {
        expect(RegExp).not.toBe(engine);
        throw new Error('inside');
      }),
    ).toThrow('inside');
    expect(RegExp).toBe(engine);
    expect(new RegExp('^(?=a)a').test('a')).toBe(true);
  });

  it('refuses patterns RE2 cannot run, or too large, alone or together, where a schema is taken', () => {
    expect(linearPatternProblem('^(a+)+$')).toBeUndefined();
    expect(linearPatternProblem('^(?=a)a')).toMatch(/^RE2 cannot run it .*unsupported Perl syntax/);
    expect(linearPatternProblem('(a)\\1')).toMatch(/^RE2 cannot run it/);
    expect(linearPatternProblem('[a-z]{1,300}')).toMatch(
      new RegExp(`^it is too large \\(\\d+ RE2 instructions; at most ${MAX_SCHEMA_PATTERN_PROGRAM}\\)$`),
    );
    const fifty = '^[a-z]{1,50}$';
    const schema = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`p${i}`, { type: 'string', pattern: fifty }])),
    };
    // About 100 instructions each: the fifth and sixth pass the schema's total.
    const faults = schemaFaults(schema);
    expect(faults.map((f) => f.path.join('.'))).toEqual(['properties.p4.pattern', 'properties.p5.pattern']);
    expect(faults[0]!.message).toMatch(/^the pattern cannot be used: the schema's patterns are too large together/);
  });
});
