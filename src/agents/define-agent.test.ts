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
    ).toThrow(
      'responseFormat.properties.items.items.pattern: the pattern cannot be used: RE2 cannot run it (RE2 has no lookaround or backreferences): error parsing regexp: missing closing )',
    );
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

  it('refuses an unknown review rule or predicate, and options they do not take, naming where', () => {
    const gated = (gate: unknown) => ({ ...base, approval: { tools: { read_data: gate } } }) as Parameters<typeof defineAgent>[0];
    expect(() => defineAgent(gated({ review: { rule: 'nope' } }))).toThrow(
      'Agent "coded" is invalid:\n  approval.tools.read_data.review.rule: no rule "nope" in src/reviewers/rules.ts (known: amountLimits)',
    );
    expect(() => defineAgent(gated({ when: { not: { predicate: 'nope' } } }))).toThrow(
      '  approval.tools.read_data.when.not.predicate: no predicate "nope" in src/policy/predicates.ts (known: externalRecipient',
    );
    expect(agentProblems(gated({ review: { rule: 'amountLimits', options: { approveUpTo: 'lots', rejectAbove: -1, bogus: 1 } } }))).toEqual(
      [
        { path: ['approval', 'tools', 'read_data', 'review', 'options', 'approveUpTo'], message: 'expected a finite number' },
        { path: ['approval', 'tools', 'read_data', 'review', 'options', 'rejectAbove'], message: expect.stringContaining('0 or more') },
        {
          path: ['approval', 'tools', 'read_data', 'review', 'options', 'bogus'],
          message: 'not an option: amountLimits takes arg, approveUpTo, rejectAbove',
        },
      ],
    );
    // The default entry too, and a policy whose other fields are wrong hides none of it.
    expect(
      agentProblems({ ...base, approval: { timeout: 'soon', default: { when: { predicate: 'writesData', options: { q: 1 } } } } as never }),
    ).toEqual([
      expect.objectContaining({ path: ['approval', 'timeout'] }),
      { path: ['approval', 'default', 'when', 'options', 'q'], message: 'not an option: writesData takes no options' },
    ]);
    expect(
      defineAgent(
        gated({
          when: { predicate: 'externalRecipient', options: { domains: ['shop.com'] } },
          review: { rule: 'amountLimits', options: { approveUpTo: 10 } },
        }),
      ).approval.tools.read_data,
    ).toMatchObject({ review: { rule: 'amountLimits' } });
  });
});
