/**
 * What streaming a model's text through the run's Workflow Stream costs, and how fast it arrives. Standalone
 * (not part of `npm run bench`):
 *
 *   npx tsx bench/scenarios/streaming.ts [--tokens 1000] [--ms-per-token 20] [--interval 250]
 *
 * One dev server, the scripted model replying with `--tokens` chunks of 4 characters (about a token each) at
 * `--ms-per-token`, and two in-process workers: one with streaming at `--interval` ms batches, one without. The
 * same one-step run goes through each, and through the streaming one again with a subscriber attached; the
 * history each leaves (events, and bytes as protobuf) shows what streaming adds per 1,000 tokens. Latency, from the
 * subscribed run: publish (the activity's debug log of each batch) to receipt by a
 * `WorkflowStreamClient.create(client, workflowId)` subscriber, per batch; and a token's chunk leaving the model
 * server to receipt, per token (this includes the wait for the batch).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import proto from '@temporalio/proto';
import { DefaultLogger, NativeConnection, Runtime, type LogEntry } from '@temporalio/worker';
import { WorkflowStreamClient } from '@temporalio/workflow-streams/client';
import { decodePayloadWire } from '@temporalio/workflow-streams/workflow';
import { agents } from '../../src/agents/registry.js';
import { startDevServer } from '../../src/dev/dev-server.js';
import { startModelServer } from '../../src/model-server/server.js';
import type { TokenEvent } from '../../src/schemas/token-event.js';
import { createWorker } from '../../src/worker.js';
import { bundleWorkflows } from '../../src/workflow-bundle.js';
import { runStreamItemsQuery } from '../../src/contract/messages.js';
import { summarize } from '../stats.js';

const { values: args } = parseArgs({
  options: {
    tokens: { type: 'string', default: '1000' },
    'ms-per-token': { type: 'string', default: '20' },
    interval: { type: 'string', default: '250' },
  },
});
const TOKENS = Number(args.tokens);
const MS_PER_TOKEN = Number(args['ms-per-token']);
const INTERVAL = Number(args.interval);
const CHUNK = 4;
const ANSWER = Array.from({ length: TOKENS }, (_, i) => `w${String(i % 1000).padStart(3, '0')}`).join('');

// Each batch the activity sends is logged at debug with its time: collect those, pass on warnings and errors.
const sentAt = new Map<string, number>();
Runtime.install({
  logger: new DefaultLogger('DEBUG', (entry: LogEntry) => {
    const meta = entry.meta as Partial<TokenEvent & { sentAt: number }> | undefined;
    if (entry.message === 'Model text batch published' && meta?.sentAt) sentAt.set(`${meta.step}/${meta.attempt}/${meta.seq}`, meta.sentAt);
    else if (entry.level === 'WARN' || entry.level === 'ERROR') console.error(`[${entry.level}] ${entry.message}`);
  }),
});

const server = await startDevServer({ uiPort: false });
const model = await startModelServer({
  script: { conversations: [{ match: 'stream', replies: [{ content: ANSWER, chunkSize: CHUNK, chunkDelayMs: MS_PER_TOKEN }] }] },
});
const bundleFile = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-streaming-bench-')), 'workflows.js');
writeFileSync(
  bundleFile,
  (await bundleWorkflows({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } })).code,
);
const nativeConnection = await NativeConnection.connect({ address: server.address });
const connection = await Connection.connect({ address: server.address });
const client = new Client({ connection, namespace: server.namespace });

const startWorker = (taskQueue: string, streaming: boolean) =>
  createWorker({
    connection: nativeConnection,
    namespace: server.namespace,
    taskQueue,
    workflowBundlePath: bundleFile,
    deps: {
      agents,
      tools: {},
      model: {
        baseURL: model.baseURL,
        apiKey: 'bench',
        defaultModel: 'scripted-model',
        ...(streaming && { streaming: { batchIntervalMs: INTERVAL } }),
      },
      webhooks: { urls: [] },
    },
  });
const workers = [await startWorker('streaming', true), await startWorker('plain', false)];
const running = workers.map((w) => w.run());

interface Received {
  event: TokenEvent;
  at: number;
  /** Read by the after-close query rather than a poll: not a latency sample. */
  late: boolean;
}

async function subscribe(workflowId: string): Promise<Received[]> {
  const received: Received[] = [];
  const tokens = WorkflowStreamClient.create(client, workflowId).topic<TokenEvent>('tokens');
  let next = 0;
  for await (const item of tokens.subscribe(0)) {
    received.push({ event: item.data, at: Date.now(), late: false });
    next = item.offset + 1;
  }
  const tail = await client.workflow.getHandle(workflowId).query(runStreamItemsQuery, { topics: ['tokens'], from_offset: next });
  for (const item of tail.items) {
    received.push({ event: defaultPayloadConverter.fromPayload<TokenEvent>(decodePayloadWire(item.data)), at: Date.now(), late: true });
  }
  return received;
}

async function oneRun(taskQueue: string, withSubscriber: boolean) {
  const workflowId = `${taskQueue}-${withSubscriber ? 'watched' : 'alone'}-${Date.now()}`;
  model.clearRequests();
  const handle = await client.workflow.start('agentWorkflow', {
    taskQueue,
    workflowId,
    args: [{ agent: 'demo', prompt: 'stream an answer' }],
  });
  const received = withSubscriber ? subscribe(workflowId) : Promise.resolve([]);
  const result = await handle.result();
  if (result.output !== ANSWER) throw new Error(`the run answered ${result.output.length} characters, not ${ANSWER.length}`);
  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  return {
    events: events.length,
    bytes: proto.temporal.api.history.v1.History.encode(history).finish().length,
    publishes: events.filter((e) => e.workflowExecutionSignaledEventAttributes).length,
    polls: events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).length,
    received: await received,
    chunksSentAt: model.requests.at(-1)?.chunksSentAt ?? [],
  };
}

try {
  const plain = await oneRun('plain', false);
  const alone = await oneRun('streaming', false);
  const watched = await oneRun('streaming', true);
  const per1000 = (n: number) => Math.round((n * 1000) / TOKENS);
  const cost = (run: typeof alone) => ({
    events: run.events,
    bytes: run.bytes,
    publishSignals: run.publishes,
    acceptedPolls: run.polls,
    addedEventsPer1000Tokens: per1000(run.events - plain.events),
    addedBytesPer1000Tokens: per1000(run.bytes - plain.bytes),
  });

  // Per batch: its publish (the activity's log) to its receipt by the subscriber.
  const live = watched.received.filter((r) => !r.late);
  const perBatch = live.flatMap((r) => {
    const sent = sentAt.get(`${r.event.step}/${r.event.attempt}/${r.event.seq}`);
    return sent === undefined ? [] : [r.at - sent];
  });
  // Per token: its chunk leaving the model server to the receipt of the batch holding its last character.
  const ends: { end: number; at: number; late: boolean }[] = [];
  let chars = 0;
  for (const r of [...watched.received].sort((a, b) => a.event.seq - b.event.seq))
    ends.push({ end: (chars += r.event.text.length), at: r.at, late: r.late });
  const perToken: number[] = [];
  for (let token = 0; token < TOKENS; token++) {
    // Chunk 0 carries the role; content chunk `token` is chunk token + 1.
    const sent = watched.chunksSentAt[token + 1];
    const batch = ends.find((e) => e.end >= (token + 1) * CHUNK);
    if (sent !== undefined && batch && !batch.late) perToken.push(batch.at - sent);
  }

  console.log(
    JSON.stringify(
      {
        settings: { tokens: TOKENS, msPerToken: MS_PER_TOKEN, batchIntervalMs: INTERVAL, charsPerToken: CHUNK },
        history: {
          withoutStreaming: { events: plain.events, bytes: plain.bytes },
          streaming: cost(alone),
          streamingWithOneSubscriber: cost(watched),
        },
        latencyMs: {
          publishToSubscriber: summarize(perBatch),
          tokenToSubscriber: summarize(perToken),
          batchesReadAfterClose: watched.received.length - live.length,
        },
      },
      null,
      2,
    ),
  );
} finally {
  for (const worker of workers) worker.shutdown();
  await Promise.all(running);
  await model.close();
  await nativeConnection.close();
  await connection.close();
  await server.stop();
}
