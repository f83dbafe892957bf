/**
 * Messages by reference, end to end without a server: whatever a run sends call after call (a growing transcript, a
 * tail edited at a breakpoint, a hook's trimmed copy, a compaction), the history's inputs rebuild exactly what was
 * sent, and a worker's cache rebuilds it too, asking the run only when it holds nothing of what it refers to.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentMessagesOf } from '../contract/message-chain.js';
import { SentMessagesCache } from '../activities/sent-messages-cache.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import { SentMessages } from './sent-messages.js';

const messageArb: fc.Arbitrary<ChatMessage> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), content: fc.string({ maxLength: 20 }) }),
  fc.record({
    role: fc.constant('assistant' as const),
    content: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
    tool_calls: fc.array(
      fc.record({
        id: fc.string({ minLength: 1, maxLength: 4 }),
        type: fc.constant('function' as const),
        function: fc.record({ name: fc.string({ maxLength: 6 }), arguments: fc.json({ maxDepth: 1 }) }),
      }),
      { maxLength: 2 },
    ),
  }),
  fc.record({ role: fc.constant('tool' as const), tool_call_id: fc.string({ minLength: 1, maxLength: 4 }), content: fc.string() }),
);

/** How the messages of one call come from the last: appended to, the tail replaced, copied (a hook), or cut. */
type Change =
  | { kind: 'append'; messages: ChatMessage[] }
  | { kind: 'replaceTail'; keep: number; messages: ChatMessage[] }
  | { kind: 'copy' }
  | { kind: 'cut'; drop: number };

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), messages: fc.array(messageArb, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('replaceTail' as const), keep: fc.nat(), messages: fc.array(messageArb, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('copy' as const) }),
  fc.record({ kind: fc.constant('cut' as const), drop: fc.nat() }),
);

function apply(messages: ChatMessage[], change: Change): ChatMessage[] {
  switch (change.kind) {
    case 'append':
      return [...messages, ...change.messages];
    case 'replaceTail':
      return [...messages.slice(0, change.keep % (messages.length + 1)), ...change.messages];
    case 'copy':
      return structuredClone(messages);
    case 'cut':
      return messages.slice(0, 1).concat(messages.slice(1 + (change.drop % Math.max(1, messages.length))));
  }
}

/** What a payload makes of a value: what the worker and a reader of the history see. */
const overTheWire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('messages by reference', () => {
  it('rebuild every call from the history, and from a worker cache that asks only when it holds nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(messageArb, { minLength: 1, maxLength: 4 }),
        fc.array(changeArb, { maxLength: 12 }),
        fc.nat(12),
        async (first, changes, restartAt) => {
          // The run's own arrays share message objects from call to call, as the transcript's do; sending freezes them.
          const lists = [structuredClone(first)];
          for (const change of structuredClone(changes)) lists.push(apply(lists.at(-1)!, change));
          const sent = lists.map(overTheWire);
          const run = new SentMessages();
          const references = lists.map((messages) => overTheWire(run.reference(messages)));
          expect(sentMessagesOf(references.map((messagesByReference) => ({ messagesByReference })))).toEqual(sent);

          let cache = new SentMessagesCache();
          let asked = 0;
          for (const [i, reference] of references.entries()) {
            if (i === restartAt) cache = new SentMessagesCache();
            const rebuilt = await cache.messagesOf('wf/run', reference, async (hash) => {
              asked++;
              // The run answers its latest call's messages, to their hash.
              expect(hash).toBe(reference.hash);
              return sent[i];
            });
            expect(rebuilt).toEqual(sent[i]);
          }
          // Only the call right after the restart may ask, and only when it refers to messages sent before it.
          expect(asked).toBe(restartAt < references.length && references[restartAt]!.known ? 1 : 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('freezes what it sent, so that no code changes a sent message in place and the next call refers to it still', () => {
    const run = new SentMessages();
    const reply: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
    };
    const first = run.reference([reply]);
    expect(() => {
      (reply.tool_calls![0]!.function as { arguments: string }).arguments = '{"x":1}';
    }).toThrow(TypeError);
    expect(() => reply.tool_calls!.push(reply.tool_calls![0]!)).toThrow(TypeError);
    expect(() => {
      (reply as { content: string | null }).content = 'changed';
    }).toThrow(TypeError);
    expect(run.reference([reply]).known).toEqual({ count: 1, hash: first.hash });
    // The run tells its latest call's messages only to their hash.
    expect(run.hashed(first.hash)).toEqual([reply]);
    expect(run.hashed('0'.repeat(64))).toBeNull();
    expect(run.hashed({ toString: () => first.hash })).toBeNull();
  });
});
