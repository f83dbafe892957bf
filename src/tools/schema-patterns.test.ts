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
      expect(checkJsonSchema(schema, value), JSON.stringify(value)).toEqual(checkJsonSchema(schema, value, { linearPatterns: false }));
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
