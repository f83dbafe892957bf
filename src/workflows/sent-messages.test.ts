import { describe, expect, it } from 'vitest';
import { sentMessagesOf } from '../contract/message-chain.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import { SentMessages } from './sent-messages.js';

const system: ChatMessage = { role: 'system', content: 'You help.' };
const user: ChatMessage = { role: 'user', content: 'Write the notes.' };
const call: ChatMessage = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'n', type: 'function', function: { name: 'write_file', arguments: '{"path":"notes.txt"}' } }],
};
const declined = (words: string): ChatMessage => ({ role: 'tool', tool_call_id: 'n', content: words });
const reply: ChatMessage = { role: 'assistant', content: 'Understood.' };
const next: ChatMessage = { role: 'user', content: 'Then read them.' };

describe('SentMessages.sent', () => {
  it('keeps the next call by reference when the latest call sent what this code made', () => {
    const sent = new SentMessages();
    const first = sent.reference([system, user]);
    sent.sent(first.hash);
    const second = sent.reference([system, user, call]);
    expect(second.known).toEqual({ count: 2, hash: first.hash });
    expect(second.added).toEqual([call]);
    // A result from before the change names no hash, and one not written by our worker may name anything: nothing is
    // compared.
    for (const hash of [undefined, null, 42, { hash: first.hash }, [first.hash]]) sent.sent(hash);
    expect(sent.reference([system, user, call, reply]).known?.count).toBe(3);
  });

  it('sends the next call whole when the latest call sent other messages than this code makes (replayed on reworded code)', () => {
    // The code that ran the call told the model of a rejection in its words.
    const before = new SentMessages();
    const first = before.reference([system, user, call]);
    const ran = before.reference([system, user, call, declined('A reviewer declined write_file.')]);

    // The run replays on code that words it otherwise: it makes another chain of the same transcript.
    const after = new SentMessages();
    after.reference([system, user, call]);
    const remade = after.reference([system, user, call, declined('A reviewer declined write_file; it did not run.')]);
    expect(remade.hash).not.toBe(ran.hash);
    after.sent(ran.hash);
    expect(after.hashed(remade.hash)).toBeNull();

    const transcript = [system, user, call, declined('A reviewer declined write_file; it did not run.'), reply, next];
    const whole = after.reference(transcript);
    expect(whole.known).toBeUndefined();
    expect(whole.added).toEqual(transcript);
    // The history still says what each call sent: the recorded input of the call that ran, then the whole one.
    const recorded = sentMessagesOf([first, ran, whole].map((messagesByReference) => ({ messagesByReference })));
    expect(recorded[2]).toEqual(transcript);
    expect(recorded[1]!.at(-1)).toEqual(declined('A reviewer declined write_file.'));
    // And by reference again after it.
    after.sent(whole.hash);
    expect(after.reference([...transcript, reply]).known?.count).toBe(transcript.length);
  });
});
