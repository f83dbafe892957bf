import { describe, expect, it } from 'vitest';
import { ChatRequest } from './chat-request.js';
import { findRequestProblem } from './request-checks.js';

const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });
const check = (body: unknown) => findRequestProblem(ChatRequest.parse({ model: 'm', ...(body as object) }));

describe('findRequestProblem', () => {
  it('accepts a well-paired transcript', () => {
    expect(
      check({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
          { role: 'tool', tool_call_id: 'b', content: '1' },
          { role: 'tool', tool_call_id: 'a', content: '2' },
          { role: 'assistant', content: 'done' },
        ],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
      }),
    ).toBeUndefined();
  });

  it('refuses an empty message list', () => {
    expect(check({ messages: [] })).toMatchObject({ param: 'messages', code: 'empty_array' });
  });

  it('refuses a tool call left unanswered before the next message, or at the end', () => {
    const unanswered = [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: '' },
    ];
    expect(check({ messages: [...unanswered, { role: 'user', content: 'y' }] })?.message).toMatch(/did not have response messages: b$/);
    expect(check({ messages: unanswered })?.message).toMatch(/did not have response messages: b$/);
  });

  it('refuses a tool message that answers no call', () => {
    expect(
      check({
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'a', content: '' },
        ],
      })?.message,
    ).toBe("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.");
  });

  it.each([undefined, 'object', { type: 'string' }, { type: 'object', properties: { a: { type: 'nonsense' } } }])(
    'refuses tool parameters %j',
    (parameters) => {
      expect(
        check({ messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'f', parameters } }] }),
      ).toMatchObject({
        code: 'invalid_function_parameters',
        param: 'tools[0].function.parameters',
      });
    },
  );
});
