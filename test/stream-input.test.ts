/**
 * Anyone who can signal a run can reach its stream: the publish signal and the poll update. Against the library as
 * it comes, a malformed publish fails the workflow task on every retry (the run is wedged: the signal stays in
 * history), and a poll for an offset that will never come waits forever. src/workflows/run-stream.ts refuses
 * both; these tests send them to real runs paused for an approval, then check the run is healthy, the stream
 * unchanged, and the run still finishes.
 */
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { encodePayloadWire, type PublishInput } from '@temporalio/workflow-streams/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenEvent } from '../src/schemas/token-event.js';
import { runStreamItemsQuery } from '../src/contract/messages.js';
import { DEFAULT_RUN_STREAM_LIMITS } from '../src/workflows/run-stream.js';
import { bundleWithReplacement } from './helpers/bundle-variant.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { POLL, pollRefusal, streamHistory } from './helpers/stream.js';

const PUBLISH = '__temporal_workflow_stream_publish';
const OFFSET = '__temporal_workflow_stream_offset';

const wire = (value: unknown) => encodePayloadWire(defaultPayloadConverter.toPayload(value));
const token = (seq: number, text = `text ${seq}`): TokenEvent => ({ step: 1, attempt: 1, seq, text });
const publish = (items: { topic: string; data: string }[], sequence = 1, publisher = 'tester'): PublishInput => ({
  items,
  publisher_id: publisher,
  sequence,
});

let h: Harness;
let unguarded: Harness;

beforeAll(async () => {
  const script = {
    conversations: [
      {
        match: 'pause',
        replies: [
          { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'notes.txt', content: 'x' } }] },
          { content: 'Written.' },
        ],
      },
    ],
  };
  const unguardedBundle = await bundleWithReplacement(/^\.\/run-stream\.js$/, 'test/fixtures/run-stream/unguarded.ts');
  [h, unguarded] = await Promise.all([startHarness({ script }), startHarness({ script, bundlePath: unguardedBundle })]);
}, 180_000);
afterAll(async () => {
  await h?.close();
  await unguarded?.close();
});

async function pausedRun(harness: Harness): Promise<WorkflowHandle> {
  const handle = await harness.start({ agent: 'demo', prompt: 'pause for an approval' });
  await waitForPending(handle, 1);
  return handle;
}

async function finishes(handle: WorkflowHandle): Promise<void> {
  await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'alice' });
  expect((await handle.result()).output).toBe('Written.');
}

const streamOffset = (handle: WorkflowHandle) => handle.query<number>(OFFSET);

describe('the library without the guard', () => {
  it('wedges the run on a malformed publish: its workflow task fails on every retry', async () => {
    const handle = await pausedRun(unguarded);
    await handle.signal(PUBLISH, publish([{ topic: 'tokens', data: '!!! not base64 !!!' }]) as never);
    await waitFor(async () => (await streamHistory(handle)).taskFailures.length >= 2, 30_000, 'repeated workflow task failures');
    const { taskFailures } = await streamHistory(handle);
    expect(taskFailures[0]!.workflowTaskFailedEventAttributes?.failure?.message).toMatch(/Invalid base64/);
    await handle.terminate();
  });
});

describe('the guarded stream', () => {
  it('refuses malformed and forged publishes without failing a workflow task, and still takes valid ones', async () => {
    const handle = await pausedRun(h);
    // The run's own events so far.
    const before = await streamOffset(handle);
    const hostile: unknown[] = [
      null,
      'tokens',
      {},
      { items: 'x', publisher_id: 'p', sequence: 1 },
      { items: [null], publisher_id: 'p', sequence: 1 },
      publish([{ topic: 'tokens', data: '!!! not base64 !!!' }]),
      publish([{ topic: 'tokens', data: 42 as never }]),
      publish([{ topic: 'tokens', data: wire(token(0)) }], 'one' as never),
      publish([{ topic: 'tokens', data: wire(token(0)) }], -1),
      // Base64 of bytes that are not a Payload, a payload that is not JSON, JSON that is not a token event.
      publish([{ topic: 'tokens', data: Buffer.from([0xff, 0xff, 0xff]).toString('base64') }]),
      publish([
        { topic: 'tokens', data: encodePayloadWire({ metadata: { encoding: Buffer.from('binary/plain') }, data: Buffer.from('hi') }) },
      ]),
      publish([{ topic: 'tokens', data: wire({ hello: 'world' }) }]),
      publish([{ topic: 'tokens', data: wire({ ...token(0), extra: true }) }]),
      publish([{ topic: 'tokens', data: wire({ ...token(0), text: 'x'.repeat(9000) }) }]),
      // Forged run events, an unknown topic, an empty batch and one too big.
      publish([{ topic: 'events', data: wire({ type: 'status', status: 'Completed' }) }]),
      publish([{ topic: 'anything', data: wire(token(0)) }]),
      publish([]),
      publish(Array.from({ length: 65 }, (_, i) => ({ topic: 'tokens', data: wire(token(i)) }))),
      // One bad item spoils its batch: nothing of it is kept.
      publish([
        { topic: 'tokens', data: wire(token(0)) },
        { topic: 'tokens', data: 'AAAA!' },
      ]),
    ];
    for (const input of hostile) await handle.signal(PUBLISH, input as never);
    await handle.signal(PUBLISH, publish([{ topic: 'tokens', data: wire(token(0, 'accepted')) }], 1, 'valid') as never);
    // The same batch again (a publisher's retry) is deduplicated.
    await handle.signal(PUBLISH, publish([{ topic: 'tokens', data: wire(token(0, 'accepted')) }], 1, 'valid') as never);

    await waitFor(async () => (await streamOffset(handle)) === before + 1, 20_000, 'the valid publish');
    expect((await streamHistory(handle)).publishes).toHaveLength(hostile.length + 2);
    expect((await streamHistory(handle)).taskFailures).toEqual([]);
    await finishes(handle);
    // Of all that was published from outside, only the valid batch is in the stream, once.
    const tokens = await handle.query(runStreamItemsQuery, { topics: ['tokens'], from_offset: 0 });
    expect(tokens.items.map((item) => item.offset)).toEqual([before]);
  });

  it('leaves a signal bigger than the server takes to the server, which refuses it', async () => {
    const handle = await pausedRun(h);
    // 250 items of 8,000 characters: about 2.7 MB, past the dev server's 2 MB limit for one payload.
    const items = Array.from({ length: 250 }, (_, i) => ({ topic: 'tokens', data: wire(token(i, 'y'.repeat(8000))) }));
    const err = (await handle.signal(PUBLISH, publish(items) as never).catch((e: unknown) => e)) as Error & { cause?: Error };
    expect(err.cause?.message).toMatch(/Blob data size exceeds limit/);
    expect((await streamHistory(handle)).publishes).toEqual([]);
    await finishes(handle);
  });

  it('rejects malformed polls before they are accepted, so they cost no history and never wait forever', async () => {
    const handle = await pausedRun(h);
    const hostile: unknown[] = [
      null,
      {},
      { topics: null, from_offset: 0 },
      { topics: [], from_offset: -5 },
      { topics: [], from_offset: 'abc' },
      { topics: [], from_offset: 1.5 },
      { topics: [], from_offset: 1e12 },
      { topics: ['nonsense'], from_offset: 0 },
      { topics: 'tokens', from_offset: 0 },
    ];
    for (const input of hostile) expect(await pollRefusal(handle, input)).toBe('InvalidStreamPoll');
    const { polls, taskFailures } = await streamHistory(handle);
    expect(polls).toEqual([]);
    expect(taskFailures).toEqual([]);
    await finishes(handle);
  });

  it('lets only a few polls wait at once, keeping room for a decision among the updates Temporal lets a run have in flight', async () => {
    const handle = await pausedRun(h);
    const waiting = DEFAULT_RUN_STREAM_LIMITS.maxWaitingPolls;
    // Polls for what comes after the run's events so far: they wait.
    const end = await streamOffset(handle);
    const parked = [];
    for (let i = 0; i < waiting; i++) {
      parked.push(await handle.startUpdate(POLL, { args: [{ topics: [], from_offset: end }], waitForStage: WorkflowUpdateStage.ACCEPTED }));
    }
    expect(await pollRefusal(handle, { topics: [], from_offset: end })).toBe('StreamBusy');
    // The human's decision still gets through; the waiting polls end with the run.
    await finishes(handle);
    await Promise.allSettled(parked.map((p) => p.result()));
  });

  it('keeps a bounded log under a flood of valid publishes, dropping the oldest entries', async () => {
    const handle = await pausedRun(h);
    const before = await streamOffset(handle);
    const text = 'z'.repeat(2000);
    let sequence = 0;
    for (let batch = 0; batch < 40; batch++) {
      const items = Array.from({ length: 4 }, (_, i) => ({ topic: 'tokens', data: wire(token(batch * 4 + i, text)) }));
      await handle.signal(PUBLISH, publish(items, ++sequence) as never);
    }
    await waitFor(async () => (await streamOffset(handle)) === before + 160, 30_000, 'all 160 items');
    const result = await handle.executeUpdate<{ items: { data: string; offset: number }[] }, [unknown]>(POLL, {
      args: [{ topics: [], from_offset: 0 }],
    });
    const kept = result.items.reduce((n, item) => n + item.data.length, 0);
    expect(kept).toBeLessThanOrEqual(DEFAULT_RUN_STREAM_LIMITS.maxRetainedChars);
    expect(kept).toBeGreaterThan(DEFAULT_RUN_STREAM_LIMITS.maxRetainedChars / 2);
    expect(result.items[0]!.offset).toBeGreaterThan(0);
    expect(result.items.at(-1)!.offset).toBe(before + 159);
    expect((await streamHistory(handle)).taskFailures).toEqual([]);
    await finishes(handle);
  });
});
