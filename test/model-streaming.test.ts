/**
 * Streaming model calls in real runs: the model activity asks for `stream: true`, assembles the reply from the
 * chunks, and publishes its text in batches to the run's Workflow Stream, where a subscriber reads it while the
 * step is still running. The workflow gets the same result as without streaming.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { CancelledFailure, defaultPayloadConverter } from '@temporalio/common';
import { WorkflowStreamClient } from '@temporalio/workflow-streams/client';
import { decodePayloadWire } from '@temporalio/workflow-streams/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallModelResult } from '../src/activities/call-model.js';
import { createActivities } from '../src/activities/index.js';
import { DEFAULT_TOKEN_BATCHING, TokenPublisher } from '../src/activities/token-publisher.js';
import { agents } from '../src/agents/registry.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { MAX_ITEMS_PER_PUBLISH, StreamPublishInput } from '../src/schemas/stream-wire.js';
import type { TokenEvent } from '../src/schemas/token-event.js';
import { runStateQuery } from '../src/contract/messages.js';
import { runStreamItemsQuery } from '../src/contract/messages.js';
import { bundleWithReplacement } from './helpers/bundle-variant.js';
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { modelCallRunning, readTokens, streamHistory, textOf } from './helpers/stream.js';
import { uniqueName } from './helpers/temporal.js';

const LONG =
  'Durable agents keep going when workers crash, and a person who watches the run sees every word as the model ' +
  'writes it, not only when the step is over. This answer is long enough to arrive in many batches.';
const WHERE = { table: 'orders', where: { status: 'shipped' } };
/** 320,000 characters, sent in chunks of 4,096 with no pause: far more batches than one publish may carry. */
const FLOOD = Array.from({ length: 16_000 }, (_, i) => `w${String(i).padStart(5, '0')} ${'é→'[i % 2]}${'z'.repeat(11)} `).join('');

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    streaming: { batchIntervalMs: 100 },
    script: {
      conversations: [
        { match: 'long answer', replies: [{ content: LONG, chunkSize: 6, chunkDelayMs: 60 }] },
        {
          match: 'look things up',
          replies: [
            {
              content: 'Let me look.',
              toolCalls: [
                { id: 'r1', name: 'read_data', arguments: WHERE },
                { id: 'r2', name: 'read_data', arguments: { table: 'refunds' } },
              ],
              chunkSize: 5,
              interleaveToolCalls: true,
            },
            { content: 'One order has shipped.', chunkSize: 3 },
          ],
        },
        {
          match: 'flaky stream',
          replies: [
            { content: 'The answer after a retry.', chunkSize: 3, error: { status: 500, message: 'overloaded', afterChunks: 3, times: 1 } },
          ],
        },
        { match: 'flood of text', replies: [{ content: FLOOD, chunkSize: 4096 }] },
        { match: 'cancel me', replies: [{ content: 'x'.repeat(400), chunkSize: 4, chunkDelayMs: 50 }] },
        {
          match: 'pause',
          replies: [{ toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }, { content: 'Written.' }],
        },
      ],
    },
  });
});
afterAll(() => h?.close());

describe('streaming model calls', () => {
  it('delivers tokens to a subscriber while the model step is still running, in order, marked with step and attempt', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Give me a long answer' });
    let stepRunningAtFirstToken: boolean | undefined;
    const tokens = await readTokens(h.temporal.client, handle.workflowId, async () => {
      stepRunningAtFirstToken = await modelCallRunning(handle);
    });
    expect(stepRunningAtFirstToken).toBe(true);
    expect((await handle.result()).output).toBe(LONG);
    // Batched: more than one event, far fewer than the 34 chunks the server sent.
    expect(tokens.length).toBeGreaterThan(2);
    expect(tokens.length).toBeLessThan(34);
    expect(tokens.map((t) => t.seq)).toEqual(tokens.map((_, i) => i));
    expect(tokens.every((t) => t.step === 1 && t.attempt === 1)).toBe(true);
    expect(textOf(tokens, 1, 1)).toBe(LONG);
    // The request asked for streaming with usage.
    expect(h.model.completions().at(-1)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('assembles interleaved tool-call deltas and usage into the same transcript the non-streaming path gives', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Please look things up' });
    const tokens = readTokens(h.temporal.client, handle.workflowId);
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'Completed', output: 'One order has shipped.', steps: 2 });
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(result.usage.completionTokens).toBeGreaterThan(0);
    const state = await handle.query(runStateQuery);
    expect(state.messages.filter((m) => m.role === 'assistant')).toEqual([
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'r1', type: 'function', function: { name: 'read_data', arguments: JSON.stringify(WHERE) } },
          { id: 'r2', type: 'function', function: { name: 'read_data', arguments: '{"table":"refunds"}' } },
        ],
      },
      { role: 'assistant', content: 'One order has shipped.' },
    ]);
    const received = await tokens;
    expect(textOf(received, 1, 1)).toBe('Let me look.');
    expect(textOf(received, 2, 1)).toBe('One order has shipped.');
  });

  it('marks a retried attempt, so a watcher can drop the text the failed attempt streamed', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'flaky stream' });
    const tokens = readTokens(h.temporal.client, handle.workflowId);
    expect((await handle.result()).output).toBe('The answer after a retry.');
    const received = await tokens;
    // The first attempt sent two content chunks of three characters before the error event.
    expect(textOf(received, 1, 1)).toBe('The an');
    expect(textOf(received, 1, 2)).toBe('The answer after a retry.');
    const firstOfRetry = received.findIndex((t) => t.attempt === 2);
    expect(received.slice(firstOfRetry).every((t) => t.attempt === 2)).toBe(true);
    expect(received.find((t) => t.attempt === 2)?.seq).toBe(0);
  });

  it('delivers a long reply streamed fast to a watcher whole, in publishes the run takes', async () => {
    expect(FLOOD.length).toBe(320_000);
    const handle = await h.start({ agent: 'demo', prompt: 'A flood of text, fast' });
    const items = [];
    for await (const item of new HitlClient(h.temporal.client, h.taskQueue).subscribe(handle.workflowId)) items.push(item);
    const tokens = items.flatMap((item) => (item.topic === 'tokens' ? [item.token] : []));
    expect(tokens.map((t) => t.seq)).toEqual(tokens.map((_, i) => i));
    expect(textOf(tokens, 1, 1)).toBe(FLOOD);
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    // Every publish is one the run takes: none over its item count (or any other part of its wire schema).
    const { publishes, taskFailures } = await streamHistory(handle);
    expect(taskFailures).toEqual([]);
    const inputs = publishes.map((e) =>
      defaultPayloadConverter.fromPayload(e.workflowExecutionSignaledEventAttributes!.input!.payloads![0]!),
    );
    const refused = inputs.flatMap((input, i) => {
      const parsed = StreamPublishInput.safeParse(input);
      return parsed.success ? [] : [`publish ${i}: ${parsed.error.issues[0]?.message}`];
    });
    expect(refused).toEqual([]);
    expect(inputs.length).toBeGreaterThan(Math.ceil(tokens.length / MAX_ITEMS_PER_PUBLISH) - 1);
    expect((await handle.result()).status).toBe('Completed');
  });

  it('answers a late watcher after the run has closed, when polls can no longer reach it, with the query', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A long answer, read late' });
    await handle.result();
    const all = await handle.query(runStreamItemsQuery, { topics: ['tokens'], from_offset: 0 });
    const events = all.items.map((item) => defaultPayloadConverter.fromPayload<TokenEvent>(decodePayloadWire(item.data)));
    expect(all.more_ready).toBe(false);
    expect(textOf(events, 1, 1)).toBe(LONG);
    // Token items among the run's events: their offsets rise, with the events' between them.
    const offsets = all.items.map((item) => item.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(new Set(offsets).size).toBe(offsets.length);
    const rest = await handle.query(runStreamItemsQuery, { topics: [], from_offset: 2 });
    expect(rest.items[0]?.offset).toBe(2);
    await expect(handle.query(runStreamItemsQuery, { topics: [], from_offset: -1 })).rejects.toThrow(/a poll needs/);
  });

  it('costs one signal per batch and leaves no failed workflow task', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Give me another long answer' });
    const tokens = await readTokens(h.temporal.client, handle.workflowId);
    const { publishes, taskFailures } = await streamHistory(handle);
    expect(taskFailures).toEqual([]);
    expect(publishes.length).toBeGreaterThan(0);
    expect(publishes.length).toBeLessThanOrEqual(tokens.length);
  });
});

describe('the token publisher', () => {
  it('widens its interval as a call goes on, so a long answer costs fewer batches than its length', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'pause here' });
    await waitForPending(handle, 1);
    const publisher = new TokenPublisher(WorkflowStreamClient.create(h.temporal.client, handle.workflowId), {
      ...DEFAULT_TOKEN_BATCHING,
      batchIntervalMs: 50,
      widenEvery: 1,
      step: 1,
      attempt: 1,
      log: logger([]),
    });
    // 1.5 s of deltas every 10 ms. Unwidened that is some 30 batches; widened (50, 100, 150, ... ms) at most 8,
    // fewer if the machine is slow.
    const text: string[] = [];
    const started = Date.now();
    for (let i = 0; i < 150; i++) {
      text.push(`t${i} `);
      publisher.add(text.at(-1)!);
      await new Promise((r) => setTimeout(r, 10));
    }
    await publisher.close();
    // A loaded machine stretches the 1.5 s; bound the batches by the time it really took.
    const elapsed = Date.now() - started;
    // Intervals of 50, 100, 150 … ms fit k batches in 25·k·(k+1) ms; one more for the flush on close, one in flight.
    const widened = Math.ceil((Math.sqrt(1 + (8 * elapsed) / 50) - 1) / 2) + 2;
    const unwidened = Math.floor(elapsed / 50);
    const tail = await handle.query(runStreamItemsQuery, { topics: ['tokens'], from_offset: 0 });
    const events = tail.items.map((item) => defaultPayloadConverter.fromPayload<TokenEvent>(decodePayloadWire(item.data)));
    expect(events.length).toBeGreaterThan(2);
    expect(events.length).toBeLessThanOrEqual(widened);
    expect(events.length).toBeLessThan(unwidened);
    expect(textOf(events, 1, 1)).toBe(text.join(''));
    await handle.terminate();
  });
});

describe('workflow code from before the stream', () => {
  let old: Harness;
  beforeAll(async () => {
    const bundlePath = await bundleWithReplacement(/^\.\/run-stream\.js$/, 'test/fixtures/run-stream/absent.ts');
    old = await startHarness({
      bundlePath,
      streaming: { batchIntervalMs: 100 },
      script: { conversations: [{ match: 'long answer', replies: [{ content: LONG, chunkSize: 40 }] }] },
    });
  });
  afterAll(() => old?.close());

  it('still gets its reply: the publishes are signals it has no handler for, and nothing fails', async () => {
    const handle = await old.start({ agent: 'demo', prompt: 'A long answer for old code' });
    expect((await handle.result()).output).toBe(LONG);
    const { publishes, taskFailures } = await streamHistory(handle);
    expect(publishes.length).toBeGreaterThan(0);
    expect(taskFailures).toEqual([]);
  });
});

describe('the model activity alone', () => {
  const activities = () =>
    createActivities({
      agents,
      tools: {},
      model: {
        baseURL: h.model.baseURL,
        apiKey: 'sk-test',
        defaultModel: 'scripted-model',
        streaming: { batchIntervalMs: 50, closeTimeoutMs: 3000 },
      },
      webhooks: { urls: [] },
    });
  const input = (prompt: string) => ({
    agent: 'demo',
    model: 'scripted-model',
    messages: [{ role: 'user' as const, content: prompt }],
    tools: [],
    step: 1,
  });

  it('returns the reply when its run cannot be reached: publishing is best effort', async () => {
    const warnings: string[] = [];
    const env = new MockActivityEnvironment(
      { workflowExecution: { workflowId: uniqueName('no-such-run'), runId: '' }, attempt: 1 },
      { client: h.temporal.client, logger: logger(warnings) },
    );
    const result = (await env.run(activities().callModel, input('Give me a long answer'))) as CallModelResult;
    expect(result.message.content).toBe(LONG);
    expect(warnings.some((w) => w.includes('not all delivered'))).toBe(true);
  });

  it('honours cancellation mid-stream instead of returning the partial reply, and heartbeats while streaming', async () => {
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 10_000 }, { logger: logger([]) });
    let heartbeats = 0;
    env.on('heartbeat', () => {
      heartbeats++;
      env.cancel();
    });
    const outcome = await env.run(activities().callModel, input('cancel me')).catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(CancelledFailure);
    expect(heartbeats).toBeGreaterThan(0);
  });
});

function logger(warnings: string[]) {
  const ignore = (): void => {};
  return { log: ignore, trace: ignore, debug: ignore, info: ignore, warn: (m: string) => warnings.push(m), error: ignore };
}
