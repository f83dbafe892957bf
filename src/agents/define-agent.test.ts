import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIMITS } from '../contract/limits.js';
import { agentProblems, defineAgent } from './define-agent.js';
import { checkResponse } from './response-format.js';

const base = { name: 'coded', instructions: 'You help.', tools: ['read_data'] };

describe('defineAgent', () => {
  it('refuses instructions over LIMITS.instructionsBytes, as a payload holds them', () => {
    expect(defineAgent({ ...base, instructions: 'x'.repeat(LIMITS.instructionsBytes) }).instructions).toHaveLength(
      LIMITS.instructionsBytes,
    );
    expect(() => defineAgent({ ...base, instructions: 'x'.repeat(LIMITS.instructionsBytes + 1) })).toThrow(
      `Agent "coded" is invalid:\n  instructions: ${LIMITS.instructionsBytes + 1} bytes; at most ${LIMITS.instructionsBytes}`,
    );
    // A quote is two bytes where every model call's input carries it (`\"`).
    expect(agentProblems({ ...base, instructions: '"'.repeat(LIMITS.instructionsBytes / 2 + 1) })).toEqual([
      expect.objectContaining({ path: ['instructions'] }),
    ]);
  });

  it("checks a JSON Schema response format as agents in a file get it checked, and leaves zod's to zod", () => {
    expect(() =>
      defineAgent({
        ...base,
        responseFormat: { type: 'object', properties: { items: { type: 'array', items: { type: 'string', pattern: '(' } } } },
      }),
    ).toThrow('responseFormat.properties.items.items.pattern: the pattern cannot be compiled: Invalid regular expression: /(/u');
    expect(agentProblems({ ...base, responseFormat: { type: 'array' } })).toEqual([
      { path: ['responseFormat', 'type'], message: 'a response format is a JSON Schema of `type: object`' },
    ]);
    expect(agentProblems({ ...base, responseFormat: z.object({ code: z.string().regex(/^[A-Z]+$/) }) })).toEqual([]);
  });

  it('accepts what the answer can be checked with, and what it accepts applies to every answer', () => {
    const agent = defineAgent({
      ...base,
      responseFormat: {
        type: 'object',
        properties: {
          name: { $ref: '#/$defs/a name' },
          tags: { type: 'array', items: { type: 'string', pattern: '^\\p{L}+$' } },
          more: { type: 'object', patternProperties: { '^x-': { type: 'integer' } } },
          again: { $ref: '#' },
        },
        $defs: { 'a name': { type: 'string', pattern: '^[A-Z]' } },
      },
    });
    const answer = { name: 'Ada', tags: ['ü'], more: { 'x-a': 1 }, again: { name: 'Bo' } };
    expect(checkResponse(agent.responseFormat!, JSON.stringify(answer))).toEqual({ ok: true, value: answer });
    expect(checkResponse(agent.responseFormat!, JSON.stringify({ ...answer, tags: ['1'] }))).toMatchObject({ ok: false });
  });
});
