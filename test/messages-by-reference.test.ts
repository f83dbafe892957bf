/**
 * Model calls carry their messages by reference (patch messagesByReference, src/contract/message-chain.ts): each
 * call's input holds only what follows the messages of the call before it, so a step's history no longer grows with
 * the transcript; the model is still sent every message, rebuilt by the worker from what it kept, or, on a worker that
 * kept nothing (restarted here), from the run itself.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MESSAGES_NOT_HELD, sentMessagesOf, type ModelCallMessages } from '../src/contract/message-chain.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import type { ChatMessage } from '../src/schemas/chat-message.js';
import { bundleWithReplacement } from './helpers/bundle-variant.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const STEPS = 30;
const read = (i: number) => ({ toolCalls: [{ id: `r${i}`, name: 'read_data', arguments: { table: 'refunds', limit: i + 1 } }] });

const write = (id: string, path: string) => ({ toolCalls: [{ id, name: 'write_file', arguments: { path, content: 'draft' } }] });

/**
 * The model's script. The call in flight in 'reworded in flight' is refused until the test has replaced the worker
 * ('refused'), then answered ('answered'): a refusal that lasted a fixed number of tries could run out before the
 * replacement on a busy machine, and the old worker's retry would then be answered.
 */
function script(inFlight: 'refused' | 'answered') {
  return {
    conversations: [
      { match: 'many reads', replies: [...Array.from({ length: STEPS - 1 }, (_, i) => read(i)), { content: 'read enough' }] },
      {
        match: 'write after a restart',
        replies: [read(0), write('w', 'after-restart.txt'), { content: 'written' }],
      },
      {
        match: 'reworded in flight',
        replies: [
          write('n', 'notes.txt'),
          inFlight === 'refused' ? { error: { status: 500, message: 'overloaded' }, content: 'understood' } : { content: 'understood' },
        ],
      },
      { match: 'reworded while paused', replies: [write('p1', 'first.txt'), write('p2', 'second.txt'), { content: 'both handled' }] },
      // Answered too late: the test completes the call itself first.
      { match: 'forged result', replies: [{ delayMs: 60_000, content: 'too late' }, { content: 'after the forged one' }] },
    ],
  };
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ script: script('refused'), recordAs: 'messages-by-reference' });
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

/** Each model call's final failures, as the run's history records them: the failure's type and why it was final. */
async function modelCallFailures(handle: WorkflowHandle): Promise<{ type?: string | null; retryState?: number | null }[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events
    .filter((e) => e.activityTaskFailedEventAttributes)
    .map((e) => ({
      type: e.activityTaskFailedEventAttributes!.failure!.applicationFailureInfo?.type,
      retryState: e.activityTaskFailedEventAttributes!.retryState,
    }));
}

/** A new worker on the suite's own code, as the tests that replace it with other code expect to begin. */
async function workerOnSuiteCode(): Promise<void> {
  await h.restartWorker({ bundlePath: inject('workflowBundlePath') });
}

/** A bundle of the workflow code that tells the model of a rejection in other words, as a deploy without a patch. */
const rewordedBundle = () =>
  bundleWithReplacement(/^\.\/tool-messages\.js$/, 'test/fixtures/messages-by-reference/reworded-tool-messages.ts');

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
      const reworded = await rewordedBundle();
      await workerOnSuiteCode();
      h.model.setScript(script('refused'));
      const handle = await h.start({ agent: 'demo', prompt: 'reworded in flight' });
      const [pending] = await waitForPending(handle, 1);
      await decide(handle, { decisions: [{ id: pending!.id, type: 'reject', message: 'not now' }], approver: 'carla' });
      const refusedAfterRejection = () =>
        h.model.requests.some((r) => r.status === 500 && JSON.stringify(r.body).includes('reworded in flight'));
      await waitFor(refusedAfterRejection, 60_000, 'the model call after the rejection to be refused once');
      // The new code tells the model of the rejection in other words, so its chain of hashes differs from the one the
      // call in flight names, and a new worker kept nothing of the old one's.
      await h.restartWorker({ bundlePath: reworded });
      h.model.setScript(script('answered'));
      expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'understood' });

      const calls = await modelCallInputs(handle);
      expect(calls).toHaveLength(3);
      expect(calls[1]!.input.messagesByReference!.known!.count).toBe(2);
      expect(calls[2]!.input.messagesByReference).toBeUndefined();
      // The first try after the restart asked the run, which answered that it holds no such messages. The worker
      // reports that as retryable; the run scheduled the call with it as final, so it failed at once.
      expect(await modelCallFailures(handle)).toEqual([
        { type: MESSAGES_NOT_HELD, retryState: temporal.api.enums.v1.RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE },
      ]);
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

  it(
    'sends every message in the next call of a run paused across a deploy that reworded a note, so its history still says what each call sent',
    { timeout: 120_000 },
    async () => {
      const reworded = await rewordedBundle();
      await workerOnSuiteCode();
      const handle = await h.start({ agent: 'demo', prompt: 'reworded while paused' });
      const [first] = await waitForPending(handle, 1);
      await decide(handle, { decisions: [{ id: first!.id, type: 'reject', message: 'not now' }], approver: 'carla' });
      const waiting = () => handle.query(pendingApprovalsQuery);
      await waitFor(async () => (await waiting()).some((p) => p.id !== first!.id), 60_000, 'the second write to wait');
      const second = (await waiting()).find((p) => p.id !== first!.id);
      // Paused with the rejection told in the old words; the new code replays it and words it otherwise.
      await h.restartWorker({ bundlePath: reworded });
      await decide(handle, { decisions: [{ id: second!.id, type: 'approve' }], approver: 'carla' });
      expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'both handled' });

      const calls = await modelCallInputs(handle);
      expect(calls).toHaveLength(3);
      expect(calls[1]!.input.messagesByReference!.known!.count).toBe(2);
      // The second call sent the old words, its result says so, and the new code makes other ones: the third call
      // refers to nothing, and no worker had to ask the run for anything.
      expect(calls[2]!.input.messagesByReference!.known).toBeUndefined();
      expect(await modelCallFailures(handle)).toEqual([]);
      const sent = sentMessagesOf(calls.map((c) => c.input));
      expect(requestsFor('reworded while paused')).toEqual(sent);
      const rejection = (messages: ChatMessage[]) => messages.find((m) => m.role === 'tool' && m.tool_call_id === 'p1')?.content;
      expect(rejection(sent[1]!)).not.toBe(rejection(sent[2]!));
      expect(rejection(sent[2]!)).toBe('A reviewer declined write_file; it did not run. Why: not now');
    },
  );

  it(
    'reads a model call result that anyone completed, whatever hash it names or none, without failing a workflow task',
    { timeout: 120_000 },
    async () => {
      await workerOnSuiteCode();
      const forgeries: unknown[] = [
        null,
        {
          message: { role: 'assistant', content: 'forged' },
          usage: { promptTokens: 1, completionTokens: 1 },
          finishReason: 'stop',
          sentHash: { not: 'a hash' },
        },
        {
          message: { role: 'assistant', content: 'forged' },
          usage: { promptTokens: 1, completionTokens: 1 },
          finishReason: 'stop',
          sentHash: 'f'.repeat(64),
        },
      ];
      for (const forged of forgeries) {
        const handle = await h.start({ agent: 'demo', prompt: 'forged result' });
        const pendingCall = async () => (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'callModel');
        await waitFor(
          async () => (await pendingCall())?.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
          30_000,
          'the model call to start',
        );
        // Whoever may write to the namespace can complete a running activity with any result (`temporal activity complete`).
        await h.temporal.client.activity.complete(
          { workflowId: handle.workflowId, activityId: (await pendingCall())!.activityId! },
          forged,
        );
        await waitFor(
          async () => (await handle.describe()).status.name !== 'RUNNING' || (await handle.query(runStateQuery)).step >= 2,
          30_000,
          'the run to take the result',
        );
        const events = (await handle.fetchHistory()).events ?? [];
        expect(
          events.filter((e) => e.workflowTaskFailedEventAttributes),
          JSON.stringify(forged),
        ).toEqual([]);
        // What the run makes of it is what it makes of any reply: null reads as an empty answer, the others as theirs.
        const output = (forged as { message?: { content?: string } } | null)?.message?.content ?? '';
        expect(await handle.result(), JSON.stringify(forged)).toMatchObject({ status: 'Completed', output });
      }
    },
  );
});
