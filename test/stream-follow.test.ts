/**
 * A run's stream outlives its runs and its workers. A subscriber follows the real agent workflow across
 * continue-as-new (which the run does while watched: a waiting poll no longer holds it back), and across a worker
 * killed in the middle of a model call: offsets go on without a gap or a repeat, the retried call's text is marked
 * by its attempt, and the stream the run keeps at the end is what the subscriber got.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HitlClient } from '../src/client/hitl-client.js';
import { runStateQuery, streamPollUpdate } from '../src/contract/messages.js';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import type { RunStreamItem } from '../src/schemas/run-event.js';
import type { TokenEvent } from '../src/schemas/token-event.js';
import { DEFAULT_RUN_STREAM_LIMITS } from '../src/workflows/run-stream.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { streamHistory, textOf } from './helpers/stream.js';
import { connectTestTemporal, uniqueName, type TestTemporal } from './helpers/temporal.js';
import { sigkill, spawnWorkerProcess, workerProcesses } from './helpers/worker-processes.js';

const STEPS = 40;
const ANSWER = 'This answer is streamed slowly, so that the worker writing it can be killed half way through. '.repeat(2);
const read = { id: 'r', name: 'read_data', arguments: { table: 'refunds' } };
const write = { id: 'w', name: 'write_file', arguments: { path: 'flood.txt', content: 'x' } };

const tokensOf = (items: RunStreamItem[]): TokenEvent[] => items.flatMap((i) => (i.topic === 'tokens' ? [i.token] : []));
const eventsOf = (items: RunStreamItem[]) => items.flatMap((i) => (i.topic === 'events' ? [i.event] : []));

describe('following a run', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      streaming: { batchIntervalMs: 50 },
      script: {
        conversations: [
          {
            match: 'follow the chain',
            replies: [{ content: 'Reading again.', toolCalls: [read], repeat: STEPS }, { content: 'All read.' }],
          },
          { match: 'flooded while watched', replies: [{ toolCalls: [write] }, { content: 'Written at last.' }] },
        ],
      },
    });
  });
  afterAll(() => h?.close());

  it('across continue-as-new, watched from start to end', { timeout: 180_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'follow the chain', maxSteps: 100, continueAsNew: { maxEvents: 200 } });
    const items: RunStreamItem[] = [];
    for await (const item of new HitlClient(h.temporal.client, h.taskQueue).subscribe(handle.workflowId)) items.push(item);

    const latest = h.temporal.client.workflow.getHandle(handle.workflowId);
    expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'All read.', steps: STEPS + 1 });
    const { previousRunIds } = await latest.query(runStateQuery);
    expect(previousRunIds.length).toBeGreaterThanOrEqual(2);

    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    const events = eventsOf(items);
    const steps = Array.from({ length: STEPS + 1 }, (_, i) => i + 1);
    expect(events.flatMap((e) => (e.type === 'step_started' ? [e.step] : []))).toEqual(steps);
    expect(events.filter((e) => e.type === 'tool_call_finished')).toHaveLength(STEPS);
    const tokens = tokensOf(items);
    for (const step of steps.slice(0, -1)) expect(textOf(tokens, step, 1)).toBe('Reading again.');
    expect(textOf(tokens, STEPS + 1, 1)).toBe('All read.');
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', status: 'Completed', steps: STEPS + 1 });
  });

  it('serves a subscriber the run refuses to poll for (StreamBusy) by query, missing nothing', { timeout: 120_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'flooded while watched, by six' });
    const hitl = new HitlClient(h.temporal.client, h.taskQueue);
    const reads = Array.from({ length: DEFAULT_RUN_STREAM_LIMITS.maxWaitingPolls + 1 }, () => [] as RunStreamItem[]);
    const watching = reads.map(async (items) => {
      for await (const item of hitl.subscribe(handle.workflowId)) items.push(item);
    });
    await waitFor(() => reads.every((items) => eventsOf(items).some((e) => e.type === 'approval_requested')), 60_000, 'every watcher');
    // The run holds as many polls as it allows; the last subscriber was refused and reads by query meanwhile.
    const waitingPolls = async () => {
      const { polls } = await streamHistory(handle);
      const completed = ((await handle.fetchHistory()).events ?? []).filter((e) => e.workflowExecutionUpdateCompletedEventAttributes);
      return polls.length - completed.length;
    };
    await expect.poll(waitingPolls, { timeout: 20_000 }).toBe(DEFAULT_RUN_STREAM_LIMITS.maxWaitingPolls);

    await handle.executeUpdate('decide', { args: [{ decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ann' }] });
    await Promise.all(watching);
    for (const items of reads.slice(1)) expect(items).toEqual(reads[0]);
    expect(eventsOf(reads[0]!).at(-1)).toMatchObject({ type: 'run_finished', output: 'Written at last.' });
  });

  it('continues as new while a watcher waits and history fills with nothing to tell', { timeout: 180_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'flooded while watched', continueAsNew: { maxEvents: 200 } });
    const hitl = new HitlClient(h.temporal.client, h.taskQueue);
    const items: RunStreamItem[] = [];
    const watching = (async () => {
      for await (const item of hitl.subscribe(handle.workflowId)) items.push(item);
    })();
    await waitFor(() => eventsOf(items).some((e) => e.type === 'approval_requested'), 20_000, 'the watcher to see the approval');
    // Signals the run refuses without a word (sub-agent reports from nowhere) grow its history while the watcher's
    // poll waits for an item that does not come. A run that waited for every handler would never start over.
    const firstRun = (await handle.describe()).runId;
    const latest = h.temporal.client.workflow.getHandle(handle.workflowId);
    const startedOver = async () => (await latest.describe()).runId !== firstRun;
    for (let i = 0; i < 400 && !(i % 20 === 0 && (await startedOver())); i++)
      await handle.signal('hitl.childApprovals', { from: 'nowhere' } as never);
    await waitFor(startedOver, 60_000, 'a new run');

    await waitFor(async () => (await latest.query(runStateQuery)).pending.length === 1);
    await latest.executeUpdate('decide', { args: [{ decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ann' }] });
    expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'Written at last.' });
    await watching;
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    expect(
      eventsOf(items)
        .map((e) => e.type)
        .slice(-4),
    ).toEqual(['tool_call_finished', 'step_started', 'model_replied', 'run_finished']);
    expect(eventsOf(items).filter((e) => e.type === 'approval_decided')).toHaveLength(1);
  });

  it('ends with the run even when a waiting poll is never answered', { timeout: 120_000 }, async () => {
    // A server that evicts a run from its cache loses the polls waiting on it: when the run then completes, nothing
    // answers them. Here the polls reach the run, but this client never hears back from them.
    const silent = new Client({
      connection: h.temporal.client.connection,
      namespace: h.temporal.namespace,
      interceptors: {
        workflow: [
          {
            startUpdate: (input, next) => {
              if (input.updateName !== streamPollUpdate.name) return next(input);
              next(input).catch(() => {});
              return new Promise(() => {});
            },
          },
        ],
      },
    });
    const handle = await h.start({ agent: 'demo', prompt: 'flooded while watched, unanswered' });
    const items: RunStreamItem[] = [];
    let endedAt = 0;
    const watching = (async () => {
      for await (const item of new HitlClient(silent, h.taskQueue).subscribe(handle.workflowId, { closedCheckMs: 500 })) items.push(item);
      endedAt = Date.now();
    })();
    await waitFor(async () => (await handle.query(runStateQuery)).pending.length === 1);
    await handle.executeUpdate('decide', { args: [{ decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ann' }] });
    await handle.result();
    const closedAt = Date.now();
    await watching;
    // Everything the run published, read by query once it was seen to have closed.
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    expect(eventsOf(items).at(-1)).toMatchObject({ type: 'run_finished', output: 'Written at last.' });
    expect(endedAt - closedAt).toBeLessThan(10_000);
  });
});

describe('a worker killed in the middle of a model call', () => {
  let temporal: TestTemporal;
  let model: ModelServer;
  let dataDir: string;
  beforeAll(async () => {
    temporal = await connectTestTemporal();
    model = await startModelServer({
      script: { conversations: [{ match: 'crash mid-answer', replies: [{ content: ANSWER, chunkSize: 4, chunkDelayMs: 80 }] }] },
    });
    dataDir = mkdtempSync(path.join(tmpdir(), 'hitl-stream-crash-'));
  });
  afterAll(async () => {
    for (const worker of workerProcesses) worker.kill('SIGKILL');
    await model?.close();
    await temporal?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing the subscriber was sent, and the retried call streams again under its next attempt', { timeout: 120_000 }, async () => {
    const taskQueue = uniqueName('stream-crash');
    const worker = () =>
      spawnWorkerProcess({
        address: temporal.address,
        namespace: temporal.namespace,
        taskQueue,
        modelBaseURL: model.baseURL,
        dataDir,
        bundlePath: inject('workflowBundlePath'),
        streamBatchMs: 100,
      });
    let first: ChildProcess | undefined = await worker();
    const handle = await temporal.client.workflow.start('agentWorkflow', {
      args: [{ agent: 'demo', prompt: 'crash mid-answer' }],
      taskQueue,
      workflowId: uniqueName('stream-crash'),
    });

    const items: RunStreamItem[] = [];
    for await (const item of new HitlClient(temporal.client, taskQueue).subscribe(handle.workflowId)) {
      items.push(item);
      if (first && tokensOf(items).length === 3) {
        await sigkill(first);
        first = undefined;
        await worker();
      }
    }

    expect(await handle.result()).toMatchObject({ status: 'Completed', output: ANSWER });
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    const tokens = tokensOf(items);
    const before = textOf(tokens, 1, 1);
    expect(before.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(before) && before.length < ANSWER.length).toBe(true);
    expect(textOf(tokens, 1, 2)).toBe(ANSWER);
    expect(eventsOf(items).filter((e) => e.type === 'step_started')).toHaveLength(1);
    expect(eventsOf(items).at(-1)).toMatchObject({ type: 'run_finished', output: ANSWER });

    // The stream the run keeps (rebuilt by the new worker from history) is the one the subscriber read.
    const kept: RunStreamItem[] = [];
    for await (const item of new HitlClient(temporal.client, taskQueue).subscribe(handle.workflowId)) kept.push(item);
    expect(kept).toEqual(items);
  });
});
