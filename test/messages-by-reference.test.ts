/**
 * Model calls carry their messages by reference (patch messagesByReference, src/contract/message-chain.ts): each
 * call's input holds only what follows the messages of the call before it, so a step's history no longer grows with
 * the transcript; the model is still sent every message, rebuilt by the worker from what it kept, or, on a worker that
 * kept nothing (restarted here), from the run itself.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentMessagesOf, type ModelCallMessages } from '../src/contract/message-chain.js';
import { runStateQuery } from '../src/contract/messages.js';
import type { ChatMessage } from '../src/schemas/chat-message.js';
import { bundleWithReplacement } from './helpers/bundle-variant.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const STEPS = 30;
const read = (i: number) => ({ toolCalls: [{ id: `r${i}`, name: 'read_data', arguments: { table: 'refunds', limit: i + 1 } }] });

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    script: {
      conversations: [
        { match: 'many reads', replies: [...Array.from({ length: STEPS - 1 }, (_, i) => read(i)), { content: 'read enough' }] },
        {
          match: 'write after a restart',
          replies: [
            read(0),
            { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'after-restart.txt', content: 'kept' } }] },
            { content: 'written' },
          ],
        },
        {
          match: 'reworded in flight',
          replies: [
            { toolCalls: [{ id: 'n', name: 'write_file', arguments: { path: 'notes.txt', content: 'draft' } }] },
            // Refused until the worker has been replaced (3 times a request body): the call is in flight meanwhile.
            { error: { status: 500, message: 'overloaded', times: 3 }, content: 'understood' },
          ],
        },
      ],
    },
    recordAs: 'messages-by-reference',
  });
});
afterAll(async () => {
  await h?.close();
});

/** Each model call's input, as the run scheduled it, with its size in bytes. */
async function modelCallInputs(handle: WorkflowHandle): Promise<{ input: ModelCallMessages; bytes: number }[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel')
    .map((e) => {
      const payload = e.activityTaskScheduledEventAttributes!.input!.payloads![0]!;
      return { input: defaultPayloadConverter.fromPayload(payload as never) as ModelCallMessages, bytes: payload.data!.length };
    });
}

/** Each model call's failed attempts, as the run's history records them: the failure's type and whether it was final. */
async function modelCallFailures(handle: WorkflowHandle): Promise<{ type?: string | null; nonRetryable?: boolean | null }[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events
    .filter((e) => e.activityTaskFailedEventAttributes)
    .map((e) => e.activityTaskFailedEventAttributes!.failure!.applicationFailureInfo ?? {})
    .map((info) => ({ type: info.type, nonRetryable: info.nonRetryable }));
}

/** The messages the model was sent, request by request, for this run's prompt. */
function requestsFor(prompt: string): ChatMessage[][] {
  return h.model
    .completions()
    .map((r) => r.messages as ChatMessage[])
    .filter((messages) => messages.some((m) => m.role === 'user' && m.content === prompt));
}

describe('model calls carry their messages by reference', () => {
  it('adds what is new to history each step, while the model is sent the whole transcript', { timeout: 120_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'many reads', maxSteps: STEPS + 5 });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'read enough', steps: STEPS });

    const calls = await modelCallInputs(handle);
    expect(calls).toHaveLength(STEPS);
    // The first call is whole (there is no call before it); every later one adds the reply and its tool's answer.
    expect(calls[0]!.input.messagesByReference?.known).toBeUndefined();
    for (const [i, { input }] of calls.entries()) {
      expect(input.messages).toBeUndefined();
      if (i > 0) {
        expect(input.messagesByReference!.known!.count).toBe(2 + 2 * (i - 1));
        expect(input.messagesByReference!.added.map((m) => m.role)).toEqual(['assistant', 'tool']);
      }
    }
    // Each step's input stays the same size: the transcript grew by about 200 bytes a step, so whole, the last call
    // would be about 6 KB larger than the second.
    const later = calls.slice(1).map((c) => c.bytes);
    console.log(`model call inputs, bytes: first ${calls[0]!.bytes}, later ${Math.min(...later)}–${Math.max(...later)}`);
    expect(Math.max(...later) - Math.min(...later)).toBeLessThan(64);

    // What the model received, request by request, is what the history says each call sent, and the transcript.
    const sent = sentMessagesOf(calls.map((c) => c.input));
    const received = requestsFor('many reads');
    expect(received).toEqual(sent);
    const { messages } = await handle.query(runStateQuery);
    expect(received.at(-1)).toEqual(messages.slice(0, -1));
    expect(received.at(-1)).toHaveLength(2 + 2 * (STEPS - 1));
  });

  it('rebuilds a call on a worker that kept nothing, by asking the run', { timeout: 120_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'write after a restart' });
    const [pending] = await waitForPending(handle, 1);
    // A new worker process holds none of the messages the paused run sent its model calls.
    await h.restartWorker();
    await decide(handle, { decisions: [{ id: pending!.id, type: 'approve' }], approver: 'carla' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'written' });

    const calls = await modelCallInputs(handle);
    expect(calls).toHaveLength(3);
    expect(calls[2]!.input.messagesByReference!.known!.count).toBe(4);
    expect(calls[2]!.input.messagesByReference!.added.map((m) => m.role)).toEqual(['assistant', 'tool']);
    const received = requestsFor('write after a restart');
    expect(received).toEqual(sentMessagesOf(calls.map((c) => c.input)));
    expect(received[2]!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(received[2]!.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'w', content: expect.stringContaining('after-restart.txt') });
  });

  it(
    'sends the messages whole when a call in flight names messages the run no longer makes (a deploy reworded a note)',
    { timeout: 120_000 },
    async () => {
      const reworded = await bundleWithReplacement(
        /^\.\/tool-messages\.js$/,
        'test/fixtures/messages-by-reference/reworded-tool-messages.ts',
      );
      const handle = await h.start({ agent: 'demo', prompt: 'reworded in flight' });
      const [pending] = await waitForPending(handle, 1);
      await decide(handle, { decisions: [{ id: pending!.id, type: 'reject', message: 'not now' }], approver: 'carla' });
      const refusedAfterRejection = () =>
        h.model.requests.some((r) => r.status === 500 && JSON.stringify(r.body).includes('reworded in flight'));
      await waitFor(refusedAfterRejection, 60_000, 'the model call after the rejection to be refused once');
      // The new code tells the model of the rejection in other words, so its chain of hashes differs from the one the
      // call in flight names, and a new worker kept nothing of the old one's.
      await h.restartWorker({ bundlePath: reworded });
      expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'understood' });

      const calls = await modelCallInputs(handle);
      expect(calls).toHaveLength(3);
      expect(calls[1]!.input.messagesByReference!.known!.count).toBe(2);
      expect(calls[2]!.input.messagesByReference).toBeUndefined();
      // The first try after the restart asked the run, which answered that it holds no such messages: final at once.
      expect(await modelCallFailures(handle)).toEqual([{ type: 'MessagesUnavailable', nonRetryable: true }]);
      // The model got the first call and the one sent whole; the history says what each sent.
      const [first, , whole] = sentMessagesOf(calls.map((c) => c.input));
      const received = requestsFor('reworded in flight');
      expect(received).toEqual([first, whole]);
      expect(received.at(-1)!.at(-1)).toMatchObject({
        role: 'tool',
        tool_call_id: 'n',
        content: 'A reviewer declined write_file; it did not run. Why: not now',
      });
    },
  );
});
