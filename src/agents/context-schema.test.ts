import { describe, expect, it } from 'vitest';
import { checkContext, withDefaults } from './context-schema.js';

// Parsed, as an agents file's schema is: `__proto__` is then a property like any other.
const schema = JSON.parse(`{
  "type": "object",
  "properties": {
    "tier": { "type": "string", "enum": ["free", "pro"], "default": "free" },
    "limits": { "type": "object", "properties": { "seats": { "type": "integer", "default": 1 } }, "default": {} },
    "tags": { "type": "array", "items": { "type": "string" }, "default": ["a"] },
    "__proto__": { "default": { "polluted": true } }
  }
}`);

describe("a JSON Schema context's defaults", () => {
  it('fill absent properties at every depth, and leave given values as they are', () => {
    const filled = withDefaults(schema, {}) as Record<string, unknown>;
    expect(filled).toEqual(JSON.parse('{"tier":"free","limits":{"seats":1},"tags":["a"],"__proto__":{"polluted":true}}'));
    expect(Object.keys(filled)).toEqual(['tier', 'limits', 'tags', '__proto__']);
    // A property named __proto__ is a key, never the prototype.
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
    expect(withDefaults(schema, { tier: 'pro', limits: { seats: 5 } })).toMatchObject({ tier: 'pro', limits: { seats: 5 } });
    expect(withDefaults(schema, { limits: {} })).toMatchObject({ limits: { seats: 1 } });
  });

  it('hand out copies: a run that changes its context changes no later default', () => {
    const first = withDefaults(schema, {}) as { tags: string[] };
    first.tags.push('b');
    expect((withDefaults(schema, {}) as { tags: string[] }).tags).toEqual(['a']);
  });

  it('are checked like any value, and are in the checked context', () => {
    expect(checkContext({ type: 'object', properties: { tier: { type: 'string', default: 'free' } } }, {})).toEqual({
      ok: true,
      value: { tier: 'free' },
    });
    const wrongDefault = checkContext({ type: 'object', properties: { seats: { type: 'integer', default: 'many' } } }, {});
    expect(wrongDefault.ok).toBe(false);
  });
});
