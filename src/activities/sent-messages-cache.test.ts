import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { EMPTY_CHAIN, extendChain, MESSAGES_NOT_HELD, MESSAGES_UNAVAILABLE, type MessagesByReference } from '../contract/message-chain.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import { SentMessagesCache } from './sent-messages-cache.js';

const system: ChatMessage = { role: 'system', content: 'You help.' };
const user: ChatMessage = { role: 'user', content: 'Read the refunds.' };
const reply: ChatMessage = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'r', type: 'function', function: { name: 'read_data', arguments: '{}' } }],
};
const answer: ChatMessage = { role: 'tool', tool_call_id: 'r', content: '[]' };

const hashOf = (messages: ChatMessage[]) => extendChain([], messages).at(-1) ?? EMPTY_CHAIN;
const whole = (messages: ChatMessage[]): MessagesByReference => ({ added: messages, hash: hashOf(messages) });
const after = (before: ChatMessage[], added: ChatMessage[]): MessagesByReference => ({
  known: { count: before.length, hash: hashOf(before) },
  added,
  hash: hashOf([...before, ...added]),
});
const never = async (): Promise<unknown> => {
  throw new Error('asked the run');
};

async function refusal(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

describe('SentMessagesCache', () => {
  it('rebuilds a call from the run’s last one without asking, and keeps runs apart', async () => {
    const cache = new SentMessagesCache();
    expect(await cache.messagesOf('a', whole([system, user]), never)).toEqual([system, user]);
    expect(await cache.messagesOf('b', whole([system]), never)).toEqual([system]);
    expect(await cache.messagesOf('a', after([system, user], [reply, answer]), never)).toEqual([system, user, reply, answer]);
    // A call may keep only part of the last one's messages (a hook trimmed them, a human edited the tail).
    expect(await cache.messagesOf('a', after([system], [user]), never)).toEqual([system, user]);
    // Run b's messages are not run a's.
    const asked: string[] = [];
    const ref = after([system, user, reply], [answer]);
    const err = await refusal(cache.messagesOf('b', ref, async (hash) => (asked.push(hash), null)));
    expect(asked).toEqual([ref.hash]);
    expect(err.type).toBe(MESSAGES_NOT_HELD);
    // Retryable as reported: a run that can send the call whole schedules it with this type as final, and a run that
    // cannot keeps its retries (another worker's code may hold the messages, mid-deploy).
    expect(err.nonRetryable).toBe(false);
  });

  it('asks again on the call’s retry when the run could not be asked', async () => {
    const cache = new SentMessagesCache();
    const ref = after([system, user], [reply]);
    const err = await refusal(
      cache.messagesOf('a', ref, async () => {
        throw new Error('Workflow task timed out');
      }),
    );
    expect(err.type).toBe(MESSAGES_UNAVAILABLE);
    expect(err.nonRetryable).toBe(false);
    expect(err.message).toContain('Workflow task timed out');
    // Only the error's first words go into the failure, which the run's history keeps in clear.
    const long = await refusal(
      cache.messagesOf('a', ref, async () => {
        throw new Error(`query failed: ${'secret '.repeat(100)}`);
      }),
    );
    expect(long.message.length).toBeLessThan(300);
    expect(long.message).toContain('Error: query failed: secret');
    // A cancelled call stays cancelled, so the worker reports a cancellation rather than a failure to ask.
    const cancelled = new CancelledFailure('cancelled');
    await expect(
      cache.messagesOf('a', ref, async () => {
        throw cancelled;
      }),
    ).rejects.toBe(cancelled);
    expect(await cache.messagesOf('a', ref, async () => [system, user, reply])).toEqual([system, user, reply]);
  });

  it('asks the run when it holds nothing of the messages, and takes only an answer that hashes as referred to', async () => {
    const cache = new SentMessagesCache();
    const ref = after([system, user], [reply, answer]);
    expect(await cache.messagesOf('a', ref, async () => [system, user, reply, answer])).toEqual([system, user, reply, answer]);
    // Then the next call is rebuilt from what the answer gave.
    expect(await cache.messagesOf('a', after([system, user, reply, answer], [user]), never)).toHaveLength(5);

    const fresh = new SentMessagesCache();
    const wrong = await refusal(fresh.messagesOf('a', ref, async () => [system, user, reply]));
    expect(wrong.type).toBe(MESSAGES_NOT_HELD);
    expect(wrong.message).toContain('do not hash');
    expect(wrong.nonRetryable).toBe(false);
    for (const answerOfRun of [null, 'messages', { 0: system }]) {
      const refused = await refusal(fresh.messagesOf('a', ref, async () => answerOfRun));
      expect(refused.type).toBe(MESSAGES_NOT_HELD);
      expect(refused.nonRetryable).toBe(false);
    }
    // A reference whose added messages do not make its hash (corrupt input) is not taken from the cache either.
    await cache.messagesOf('c', whole([system, user]), never);
    const corrupt = { ...after([system, user], [reply]), added: [answer] };
    expect((await refusal(cache.messagesOf('c', corrupt, async () => null))).type).toBe(MESSAGES_NOT_HELD);
  });

  it('lets the least recently used run go past its size, never the one it just kept', async () => {
    const big: ChatMessage = { role: 'user', content: 'x'.repeat(1000) };
    const cache = new SentMessagesCache(2500);
    await cache.messagesOf('a', whole([big]), never);
    await cache.messagesOf('b', whole([big]), never);
    await cache.messagesOf('a', after([big], [user]), never);
    await cache.messagesOf('c', whole([big]), never);
    // b was used least recently: it went; a and c stay.
    expect(cache.bytes).toBeLessThanOrEqual(2500);
    let asked = 0;
    await cache.messagesOf('b', after([big], [user]), async () => (asked++, [big, user]));
    expect(asked).toBe(1);
    expect(await cache.messagesOf('c', after([big], [user]), never)).toEqual([big, user]);
    // Its size is in bytes of UTF-8, not characters: 1,000 of 'é' are 2,000 bytes.
    const accented = new SentMessagesCache(2500);
    const accent: ChatMessage = { role: 'user', content: 'é'.repeat(1000) };
    await accented.messagesOf('a', whole([accent]), never);
    expect(accented.bytes).toBeGreaterThan(2000);
    // So a and b (about 3,000 bytes, though about 2,000 characters) do not both stay: a went.
    await accented.messagesOf('b', whole([big]), never);
    expect(accented.bytes).toBeLessThanOrEqual(2500);
    expect((await refusal(accented.messagesOf('a', after([accent], [user]), async () => null))).type).toBe(MESSAGES_NOT_HELD);
    const alone = new SentMessagesCache(10);
    expect(await alone.messagesOf('a', whole([big]), never)).toEqual([big]);
    expect(await alone.messagesOf('a', after([big], [user]), never)).toEqual([big, user]);
  });
});
