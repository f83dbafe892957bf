import { describe, expect, it } from 'vitest';
import { ChatRequest } from './chat-request.js';
import { selectReply } from './reply-selection.js';
import { ModelScript } from './script-schema.js';

const script = ModelScript.parse({
  conversations: [
    { match: '/^refund #\\d+/i', replies: [{ toolCalls: [{ name: 'r', arguments: { a: 1 } }] }, { content: 'Done.' }] },
    { match: 'loop', replies: [{ toolCalls: [{ id: 'x', name: 'l', rawArguments: '{bad' }], repeat: 3 }, { content: 'end' }] },
  ],
  default: { content: 'default reply' },
});

function request(prompt: string, assistants: number) {
  const messages: unknown[] = [
    { role: 'system', content: 's' },
    { role: 'user', content: prompt },
  ];
  for (let i = 0; i < assistants; i++) messages.push({ role: 'assistant', content: 'x' });
  return ChatRequest.parse({ model: 'm', messages });
}

describe('selectReply', () => {
  it('picks the conversation by the first user message and the reply by the number of assistant messages', () => {
    expect(selectReply(script, request('Refund #12 please', 0)).toolCalls).toEqual([{ id: 'call_0_0', name: 'r', arguments: '{"a":1}' }]);
    expect(selectReply(script, request('Refund #12 please', 1)).reply.content).toBe('Done.');
    expect(selectReply(script, request('refund please', 0)).reply.content).toBe('default reply');
  });

  it('repeats a reply, keeping tool call ids unique, and sends raw arguments as they are', () => {
    expect([0, 1, 2].map((n) => selectReply(script, request('loop', n)).toolCalls[0])).toEqual([
      { id: 'x', name: 'l', arguments: '{bad' },
      { id: 'x_1', name: 'l', arguments: '{bad' },
      { id: 'x_2', name: 'l', arguments: '{bad' },
    ]);
    expect(selectReply(script, request('loop', 3)).reply.content).toBe('end');
    expect(selectReply(script, request('loop', 4)).reply.content).toBe('default reply');
  });
});
