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

  it('gives RegExp back after the check, also when the check throws', () => {
    const engine = RegExp;
    expect(() =>
      withLinearPatterns(() => {
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
