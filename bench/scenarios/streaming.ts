/**
 * What streaming a model's text through the run's Workflow Stream costs in history, and how fast the text reaches
 * a subscriber. Part of `npm run bench` (section 7 of RESULTS.md); also standalone, with its own dev server:
 *
 *   npx tsx bench/scenarios/streaming.ts [--tokens 1000] [--ms-per-token 20] [--interval 250]
 *
 * A scripted model replies with `tokens` chunks of 4 characters (about a token each), one every `msPerToken`, and
 * two in-process workers run the same one-step run: one streaming in batches of `batchIntervalMs`, one not. The
 * streaming run goes once alone and once with a subscriber (`HitlClient.subscribe`, what `hitl watch` and the HTTP
 * API use) attached from the start; the history each leaves (events, and the server's `historySizeBytes`) against
 * the run without streaming is what streaming adds, per 1,000 tokens. Latency, per token: its chunk leaving the
 * model server to the subscriber holding the batch with its last character (which includes the wait for the batch).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { DEFAULT_TOKEN_BATCHING } from '../../src/activities/token-publisher.js';
import { agents } from '../../src/agents/registry.js';
import { HitlClient } from '../../src/client/hitl-client.js';
import { startDevServer } from '../../src/dev/dev-server.js';
import { startModelServer } from '../../src/model-server/server.js';
import { createWorker } from '../../src/worker.js';
import { bundleWorkflows } from '../../src/workflow-bundle.js';
import type { StreamingResults } from '../schema.js';
import { round, summarize } from '../stats.js';

export interface StreamingSettings {
  tokens: number;
  msPerToken: number;
  /** The token publisher's batch interval. @default DEFAULT_TOKEN_BATCHING.batchIntervalMs */
  batchIntervalMs: number;
}

/** What the scenario needs of a dev server. */
export interface StreamingTarget {
  address: string;
  namespace: string;
  client: Client;
  bundlePath: string;
}

const CHARS_PER_TOKEN = 4;
const PROMPT = 'stream an answer';

interface Received {
  text: string;
  seq: number;
  at: number;
  /** Read by the query after the run closed rather than by a poll: not a latency sample. */
  late: boolean;
}

export async function measureStreaming(target: StreamingTarget, settings: StreamingSettings): Promise<StreamingResults> {
  const answer = Array.from({ length: settings.tokens }, (_, i) => `w${String(i % 1000).padStart(3, '0')}`).join('');
  const model = await startModelServer({
    script: {
      conversations: [{ match: PROMPT, replies: [{ content: answer, chunkSize: CHARS_PER_TOKEN, chunkDelayMs: settings.msPerToken }] }],
    },
  });
  // The runner's process has no worker of its own otherwise: its workers say only what goes wrong.
  if (!Runtime._instance) Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address: target.address });
  const workerOn = (taskQueue: string, streaming: boolean) =>
    createWorker({
      connection,
      namespace: target.namespace,
      taskQueue,
      workflowBundlePath: target.bundlePath,
      deps: {
        agents,
        tools: {},
        model: {
          baseURL: model.baseURL,
          apiKey: 'bench',
          defaultModel: 'scripted-model',
          ...(streaming && { streaming: { batchIntervalMs: settings.batchIntervalMs } }),
        },
        webhooks: { urls: [] },
      },
    });
  const stamp = Date.now();
  const queues = { streaming: `bench-streaming-${stamp}`, plain: `bench-plain-${stamp}` };
  const workers = [await workerOn(queues.streaming, true), await workerOn(queues.plain, false)];
  const running = workers.map((w) => w.run());

  async function oneRun(taskQueue: string, watched: boolean) {
    const workflowId = `${taskQueue}-${watched ? 'watched' : 'alone'}`;
    model.clearRequests();
    const handle = await target.client.workflow.start('agentWorkflow', {
      taskQueue,
      workflowId,
      args: [{ agent: 'demo', prompt: PROMPT }],
    });
    const received = watched ? subscribe(new HitlClient(target.client, taskQueue), workflowId, handle) : Promise.resolve([]);
    const result = await handle.result();
    if (result.output !== answer) throw new Error(`the run answered ${result.output.length} characters, not ${answer.length}`);
    const [history, description] = await Promise.all([handle.fetchHistory(), handle.describe()]);
    const events = history.events ?? [];
    return {
      events: events.length,
      bytes: description.historySize ?? 0,
      publishes: events.filter((e) => e.workflowExecutionSignaledEventAttributes).length,
      polls: events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).length,
      received: await received,
      chunksSentAt: model.requests.at(-1)?.chunksSentAt ?? [],
    };
  }

  try {
    const plain = await oneRun(queues.plain, false);
    const alone = await oneRun(queues.streaming, false);
    const watched = await oneRun(queues.streaming, true);
    const per1000 = (n: number, digits: number) => round((n * 1000) / settings.tokens, digits);
    const cost = (run: typeof alone) => ({
      events: run.events,
      bytes: run.bytes,
      publishSignals: run.publishes,
      acceptedPolls: run.polls,
      addedEventsPer1000Tokens: per1000(run.events - plain.events, 1),
      addedBytesPer1000Tokens: per1000(run.bytes - plain.bytes, 0),
    });
    return {
      tokens: settings.tokens,
      msPerToken: settings.msPerToken,
      batchIntervalMs: settings.batchIntervalMs,
      charsPerToken: CHARS_PER_TOKEN,
      history: {
        withoutStreaming: { events: plain.events, bytes: plain.bytes },
        streaming: cost(alone),
        streamingWithOneSubscriber: cost(watched),
      },
      tokenToSubscriberMs: summarize(tokenLatencies(watched.received, watched.chunksSentAt, settings.tokens)),
      batchesReadAfterClose: watched.received.filter((r) => r.late).length,
    };
  } finally {
    for (const worker of workers) worker.shutdown();
    await Promise.all(running);
    await connection.close();
    await model.close();
  }
}

/** The run's model text as a subscriber gets it, timed on arrival. */
async function subscribe(hitl: HitlClient, workflowId: string, handle: { result(): Promise<unknown> }): Promise<Received[]> {
  const received: Received[] = [];
  let closed = false;
  void handle.result().then(() => (closed = true));
  for await (const item of hitl.subscribe(workflowId)) {
    if (item.topic === 'tokens') received.push({ text: item.token.text, seq: item.token.seq, at: Date.now(), late: closed });
  }
  return received;
}

/** Per token: its chunk leaving the model server to the receipt of the batch holding its last character. */
function tokenLatencies(received: Received[], chunksSentAt: number[], tokens: number): number[] {
  const ends: { end: number; at: number; late: boolean }[] = [];
  let chars = 0;
  for (const r of [...received].sort((a, b) => a.seq - b.seq)) ends.push({ end: (chars += r.text.length), at: r.at, late: r.late });
  const out: number[] = [];
  for (let token = 0; token < tokens; token++) {
    // Chunk 0 carries the role; content chunk `token` is chunk token + 1.
    const sent = chunksSentAt[token + 1];
    const batch = ends.find((e) => e.end >= (token + 1) * CHARS_PER_TOKEN);
    if (sent !== undefined && batch && !batch.late) out.push(batch.at - sent);
  }
  return out;
}

async function standalone(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      tokens: { type: 'string', default: '1000' },
      'ms-per-token': { type: 'string', default: '20' },
      interval: { type: 'string', default: String(DEFAULT_TOKEN_BATCHING.batchIntervalMs) },
    },
  });
  const server = await startDevServer({ uiPort: false });
  const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error };
  const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-streaming-bench-')), 'workflows.js');
  writeFileSync(bundlePath, (await bundleWorkflows({ logger: quiet })).code);
  const connection = await Connection.connect({ address: server.address });
  try {
    const results = await measureStreaming(
      { address: server.address, namespace: server.namespace, client: new Client({ connection, namespace: server.namespace }), bundlePath },
      { tokens: Number(args.tokens), msPerToken: Number(args['ms-per-token']), batchIntervalMs: Number(args.interval) },
    );
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await connection.close();
    await server.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  standalone().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
