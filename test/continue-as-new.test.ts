/**
 * Runs that outgrow one history: a 500-step session spread over several runs, with nothing lost across the
 * boundaries, a pending approval carried across with its original deadline, and a run with a long history that
 * continues as new before it waits for people.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HitlClient } from '../src/client/hitl-client.js';
import { readItems } from '../src/client/run-subscription.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import type { RunStreamItem } from '../src/schemas/run-event.js';
import { runHitl } from './helpers/cli.js';
import { decide, signalDecision, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { startOf, waitFor } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const read = { toolCalls: [call('r', 'read_data', { table: 'refunds' })] };
const run = promisify(execFile);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    script: {
      conversations: [
        {
          match: 'long session',
          replies: [
            { ...read, repeat: 240 },
            { toolCalls: [call('mid', 'write_file', { path: 'mid.txt', content: 'approved halfway' })] },
            { ...read, repeat: 259 },
            { content: 'turn one done' },
            { content: 'turn two done' },
          ],
        },
        // Slower than the tools' 10 s heartbeat timeout, which once reached every activity (activity-options.ts).
        {
          match: 'Conversation to summarize',
          replies: [{ content: 'The user asked for a report; two reads happened.', delayMs: 12_000 }],
        },
        {
          match: 'heavy prompt',
          replies: [
            { toolCalls: [call('h', 'write_file', { path: 'heavy.txt', content: 'x' })] },
            { content: 'answered the heavy prompt' },
          ],
        },
        {
          match: 'carry my approval',
          replies: [{ toolCalls: [call('keep', 'write_file', { path: 'keep.txt', content: 'kept' })] }, { content: 'carried' }],
        },
        {
          match: 'end my session while it waits',
          replies: [{ toolCalls: [call('end', 'write_file', { path: 'ending.txt', content: 'x' })] }, { content: 'done before the end' }],
        },
        {
          match: 'read a lot, then ask',
          replies: [
            { ...read, repeat: 80 },
            { toolCalls: [call('w', 'write_file', { path: 'asked.txt', content: 'after 80 reads' })] },
            { content: 'asked and done' },
          ],
        },
        {
          match: 'watch across runs',
          replies: [
            { ...read, repeat: 80 },
            { toolCalls: [call('w', 'write_file', { path: 'watched.txt', content: 'after 80 reads' })] },
            { content: 'watched and done' },
          ],
        },
        {
          match: 'compact me',
          replies: [{ content: 'first' }, { content: 'second' }, { content: 'third' }],
        },
      ],
    },
  });
});
afterAll(() => h?.close());

async function runIds(handle: WorkflowHandle): Promise<string[]> {
  const state = await handle.query(runStateQuery);
  const current = (await handle.describe()).runId;
  return [...state.previousRunIds, current];
}

async function eventCounts(handle: WorkflowHandle, ids: string[]): Promise<number[]> {
  return Promise.all(
    ids.map(async (runId) => ((await h.temporal.client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events ?? []).length),
  );
}

describe('continue-as-new', () => {
  it('runs a 500-step session over several runs without losing a message, decision or approval', { timeout: 240_000 }, async () => {
    const started = Date.now();
    const handle = await h.start({
      agent: 'demo',
      prompt: 'a long session',
      maxSteps: 600,
      session: { idleTimeout: '1h' },
      // Each model call carries the transcript, so late runs grow by bytes faster than by events.
      continueAsNew: { maxEvents: 1500, maxBytes: 2_000_000 },
    });
    const [mid] = await waitForPending(handle, 1, 120_000);
    console.log(`step ${(await handle.query(runStateQuery)).step} reached in ${Date.now() - started}ms`);
    // A message arrives mid-turn; it must survive every boundary until the turn ends.
    await h.temporal.client.workflow.getHandle(handle.workflowId).executeUpdate('message', { args: [{ content: 'and a second thing' }] });
    await decide(handle, { decisions: [{ id: mid!.id, type: 'approve' }], approver: 'carla' });
    await waitFor(async () => (await handle.query(runStateQuery)).status === 'AwaitingMessage', 200_000, 'both turns');
    await h.temporal.client.workflow.getHandle(handle.workflowId).executeUpdate('end', { args: [{}] });
    const result = await h.temporal.client.workflow.getHandle(handle.workflowId).result();

    expect(result).toMatchObject({ status: 'Ended', output: 'turn two done', steps: 502 });
    const state = await handle.query(runStateQuery);
    expect(state.step).toBe(502);
    expect(state.messages.filter((m) => m.role === 'tool')).toHaveLength(500);
    expect(state.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['a long session', 'and a second thing']);
    expect(state.decisions).toEqual([expect.objectContaining({ id: mid!.id, type: 'approve', approver: 'carla', outcome: 'applied' })]);
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'mid.txt'), 'utf8')).toBe('approved halfway');

    const ids = await runIds(handle);
    const counts = await eventCounts(handle, ids);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...counts)).toBeLessThanOrEqual(2000);
    console.log(`500-step session: ${ids.length} runs, events per run ${counts.join(', ')}`);
  });

  it('does not start over for what it started with: a heavy prompt waits for its decision without starting over and over', async () => {
    // Counted whole, the prompt carried in every run's input and transcript reached maxBytes as each run started: the
    // waiting run started over at once, again and again, and never stepped.
    const prompt = `heavy prompt ${'x'.repeat(60_000)}`;
    const handle = await h.start({ agent: 'demo', prompt, continueAsNew: { maxBytes: 100_000 } });
    const [pending] = await waitForPending(handle, 1);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const waited = await runIds(handle);
    expect(waited.length).toBeLessThanOrEqual(2);
    await decide(h.temporal.client.workflow.getHandle(handle.workflowId), { decisions: [{ id: pending!.id, type: 'approve' }] });
    expect(await h.temporal.client.workflow.getHandle(handle.workflowId).result()).toMatchObject({
      status: 'Completed',
      output: 'answered the heavy prompt',
    });
    // Each run that follows takes a step: the decided call's model call grows history past maxBytes again.
    expect((await runIds(h.temporal.client.workflow.getHandle(handle.workflowId))).length).toBeLessThanOrEqual(waited.length + 2);
  });

  it('carries a pending approval across with its original deadline, when signals fill the history', { timeout: 300_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'carry my approval', requestedBy: 'dana', continueAsNew: { maxEvents: 300 } });
    const [before] = await waitForPending(handle, 1);
    const firstDescription = await handle.describe();
    const firstRun = firstDescription.runId;
    // Refused signals are recorded in history; enough of them push it over the threshold while the call waits.
    const startedOver = async () => (await h.temporal.client.workflow.getHandle(handle.workflowId).describe()).runId !== firstRun;
    for (let i = 0; i < 600 && !(i % 25 === 0 && (await startedOver())); i++) {
      // Each refusal keeps 2 KB of its input: more of them than the carried audit's 128 KiB holds.
      await signalDecision(handle, { decisions: [{ id: 'nope', type: 'approve', message: 'm'.repeat(3000) }] });
    }
    await waitFor(startedOver, 120_000, 'a new run');
    const latest = h.temporal.client.workflow.getHandle(handle.workflowId);
    await waitFor(async () => (await latest.query(pendingApprovalsQuery)).length === 1);
    expect(await latest.query(pendingApprovalsQuery)).toEqual([before]);
    const state = await latest.query(runStateQuery);
    expect(state.previousRunIds).toContain(firstRun);
    expect(state.decisions.filter((d) => d.outcome === 'refused').length).toBeGreaterThan(50);
    // What the run left in its earlier runs, `hitl show` says (the refusals past the carried audit's budget).
    const earlier = state.decisions[0]!.seq - 1;
    expect(earlier).toBeGreaterThan(0);
    expect((await runHitl(h, ['show', handle.workflowId])).stdout).toContain(
      `${earlier} earlier entries are in this run's history or its earlier runs (previousRunIds in hitl --json show).`,
    );

    // No ghosts: lists show the workflow id's current execution only, and the waiting call exactly once.
    const hitl = new HitlClient(h.temporal.client, h.taskQueue);
    await waitFor(async () => (await hitl.listWaiting()).filter((w) => w.workflowId === handle.workflowId).length === 1);
    const listed = (await hitl.listWaiting()).filter((w) => w.workflowId === handle.workflowId);
    expect(listed.map((w) => w.id)).toEqual(['call-1']);
    // Lists still say who asked what: the next run's memo has the prompt and the requester.
    expect(listed[0]).toMatchObject({ userPrompt: 'carry my approval', requestedBy: 'dana' });
    const runs = (await hitl.listRuns({ limit: 1000 })).filter((r) => r.workflowId === handle.workflowId);
    expect(runs.map((r) => [r.runId, r.status])).toEqual([[(await latest.describe()).runId, 'AwaitingApproval']]);
    expect(runs[0]).toMatchObject({ prompt: 'carry my approval', requestedBy: 'dana' });
    // And when it began: the chain's first execution, not the current one (visibility's start time).
    expect((await latest.describe()).startTime.getTime()).toBeGreaterThan(firstDescription.startTime.getTime());
    expect(Date.parse(runs[0]!.startTime)).toBe(firstDescription.startTime.getTime());

    const continuedAs = (await latest.describe()).runId;
    await decide(latest, { decisions: [{ id: 'call-1', type: 'approve' }] });
    expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'carried' });
    // Watchers are told the run went on in a new execution, and which.
    const watched = (await runHitl(h, ['watch', handle.workflowId])).stdout;
    expect(watched).toContain(`\ncontinued as new at step 1: run ${continuedAs}\n`);
    await waitFor(async () => (await hitl.listWaiting()).every((w) => w.workflowId !== handle.workflowId));
    const done = (await hitl.listRuns({ limit: 1000 })).filter((r) => r.workflowId === handle.workflowId);
    expect(done.map((r) => r.status)).toEqual(['Completed']);
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'keep.txt'), 'utf8')).toBe('kept');
  });

  it("carries a session's end, with its reason, to the run it continues as", { timeout: 300_000 }, async () => {
    const handle = await h.start({
      agent: 'demo',
      prompt: 'end my session while it waits',
      session: {},
      continueAsNew: { maxEvents: 200 },
    });
    await waitForPending(handle, 1);
    const firstRun = (await handle.describe()).runId;
    await handle.executeUpdate('end', { args: [{ reason: 'the ticket was closed' }] });
    const startedOver = async () => (await h.temporal.client.workflow.getHandle(handle.workflowId).describe()).runId !== firstRun;
    for (let i = 0; i < 400 && !(i % 25 === 0 && (await startedOver())); i++) {
      await signalDecision(handle, { decisions: [{ id: 'nope', type: 'approve' }] });
    }
    await waitFor(startedOver, 120_000, 'a new run');
    const latest = h.temporal.client.workflow.getHandle(handle.workflowId);
    await waitFor(async () => (await latest.query(pendingApprovalsQuery)).length === 1);
    await decide(latest, { decisions: [{ id: 'call-1', type: 'approve' }] });
    // The turn that was under way ends; the session then ends as asked, for the reason given in the first run.
    expect(await latest.result()).toMatchObject({
      status: 'Ended',
      output: 'done before the end',
      ended: { by: 'request', reason: 'the ticket was closed' },
    });
  });

  it('continues as new before waiting for people once history holds beforeWaitEvents, unless set off', { timeout: 300_000 }, async () => {
    // 80 automatic steps (about 560 events), then a gated call: by default (500) the run starts over before it
    // waits; set to Temporal's own limit, it waits with its whole history.
    const [short, whole] = await Promise.all([
      h.start({ agent: 'demo', prompt: 'read a lot, then ask', maxSteps: 100 }),
      h.start({ agent: 'demo', prompt: 'read a lot, then ask', maxSteps: 100, continueAsNew: { beforeWaitEvents: 51_200 } }),
    ]);
    const latest = h.temporal.client.workflow.getHandle(short.workflowId);
    await waitFor(async () => (await latest.describe()).runId !== short.firstExecutionRunId, 120_000, 'the run to continue as new');
    const [waiting] = await waitForPending(latest, 1, 120_000);
    const [alsoWaiting] = await waitForPending(whole, 1, 120_000);
    expect(waiting).toMatchObject({ id: alsoWaiting!.id, toolName: 'write_file', requestedAt: expect.any(String) });
    // The first run had announced the call before it continued: the deadline and request time carry over.
    const first = h.temporal.client.workflow.getHandle(short.workflowId, short.firstExecutionRunId);
    expect((await first.describe()).status.name).toBe('CONTINUED_AS_NEW');
    const [shortEvents, wholeEvents, firstEvents] = await Promise.all(
      [latest, whole, first].map(async (handle) => (await handle.describe()).historyLength),
    );
    expect(firstEvents).toBeGreaterThanOrEqual(500);
    expect(wholeEvents).toBeGreaterThanOrEqual(500);
    expect(shortEvents).toBeLessThan(50);
    expect((await latest.query(runStateQuery)).previousRunIds).toEqual([short.firstExecutionRunId]);
    expect((await whole.describe()).runId).toBe(whole.firstExecutionRunId);

    // Once per wait: refused signals that fill the continued run's history past 500 do not make it start over again
    // (each start over copies the transcript into history).
    const continued = (await latest.describe()).runId;
    for (let i = 0; i < 100 && (await latest.describe()).historyLength < 520; i++) {
      await Promise.all(Array.from({ length: 20 }, () => signalDecision(latest, { decisions: [{ id: 'nope', type: 'approve' }] })));
    }
    await waitFor(async () => (await latest.describe()).historyLength >= 520, 60_000, 'signals to fill the history');
    expect((await latest.describe()).runId).toBe(continued);

    // Decided after the worker let both go: the continued run replays its short history, the other its whole one.
    await h.restartWorker();
    await Promise.all([latest, whole].map((handle) => decide(handle, { decisions: [{ id: waiting!.id, type: 'approve' }] })));
    for (const handle of [latest, whole]) expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'asked and done' });
    const state = await latest.query(runStateQuery);
    expect(state.messages.filter((m) => m.role === 'tool')).toHaveLength(81);
    expect(state.step).toBe((await whole.query(runStateQuery)).step);
  });

  it(
    'hands the next run only the newest part of its stream; watchers still read every offset from the runs before',
    { timeout: 300_000 },
    async () => {
      const handle = await h.start({ agent: 'demo', prompt: 'watch across runs', maxSteps: 100 });
      const latest = h.temporal.client.workflow.getHandle(handle.workflowId);
      await waitFor(async () => (await latest.describe()).runId !== handle.firstExecutionRunId, 120_000, 'the run to continue as new');
      await waitForPending(latest, 1, 120_000);

      // The continued run got the stream's newest 4 KiB, not the first run's whole log (about 70 KB here).
      const { stream } = (await startOf<{ carry: { stream: { log: { data: string }[]; base_offset: number } } }>(latest)).input.carry;
      expect(stream.log.reduce((chars, item) => chars + item.data.length, 0)).toBeLessThanOrEqual(4 * 1024);
      expect(stream.base_offset).toBeGreaterThan(100);

      const hitl = new HitlClient(h.temporal.client, h.taskQueue);
      const offsetsOf = (items: { offset: number }[]) => items.map((item) => item.offset);
      const upTo = (end: number) => Array.from({ length: end }, (_, i) => i);

      // A watcher from 0 while the run waits: the first run's part by query, then the current run's.
      const abort = new AbortController();
      const live: RunStreamItem[] = [];
      for await (const item of hitl.subscribe(handle.workflowId, { fromOffset: 0, signal: abort.signal })) {
        live.push(item);
        if (item.topic === 'events' && item.event.type === 'approval_requested') abort.abort();
      }
      expect(offsetsOf(live)).toEqual(upTo(live.length));
      const firstStep = live.find((item) => item.topic === 'events' && item.event.type === 'step_started');
      expect(firstStep).toMatchObject({ event: { step: 1 } });
      expect(firstStep!.offset).toBeLessThan(stream.base_offset);
      // What the HTTP API reads to catch a watcher up: the same, from an offset inside the first run.
      const caughtUp = await readItems(h.temporal.client, handle.workflowId, 50);
      expect(caughtUp.items[0]!.offset).toBe(50);
      expect(offsetsOf(caughtUp.items)).toEqual(upTo(caughtUp.next_offset).slice(50));

      // After the run has closed: every offset, from both runs.
      await decide(latest, { decisions: [{ id: 'call-81', type: 'approve' }] });
      expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'watched and done' });
      const all: RunStreamItem[] = [];
      for await (const item of hitl.subscribe(handle.workflowId, { fromOffset: 0 })) all.push(item);
      expect(offsetsOf(all)).toEqual(upTo(all.length));
      expect(all.at(-1)).toMatchObject({ topic: 'events', event: { type: 'run_finished' } });
      expect(all.slice(0, live.length)).toEqual(live);
      // And from Python (scripts/python/watch_run.py, on temporalio's workflow_streams): the same offsets.
      const python = (await run('bash', ['scripts/python/venv.sh'], { timeout: 600_000 })).stdout.trim();
      const args = ['scripts/python/watch_run.py', handle.workflowId, '--address', h.temporal.address, '--namespace', h.temporal.namespace];
      const { stdout } = await run(python, args, { timeout: 120_000 });
      expect(
        stdout
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { offset: number }).offset),
      ).toEqual(offsetsOf(all));
    },
  );

  it('compacts the transcript with a model summary when it starts over', { timeout: 300_000 }, async () => {
    const handle = await h.start({
      agent: 'demo',
      prompt: 'compact me',
      session: { idleTimeout: '1h' },
      continueAsNew: { maxEvents: 200, compaction: { keepLastTurns: 1, summarize: true } },
    });
    const latest = h.temporal.client.workflow.getHandle(handle.workflowId);
    for (const text of ['again', 'once more']) {
      await waitFor(async () => (await latest.query(runStateQuery)).status === 'AwaitingMessage');
      await latest.executeUpdate('message', { args: [{ content: text }] });
    }
    await waitFor(async () => (await latest.query(runStateQuery)).messages.some((m) => m.role === 'assistant' && m.content === 'third'));
    // Push history over the threshold while idle: refused signals are cheap to send.
    const before = (await latest.describe()).runId;
    const startedOver = async () => (await latest.describe()).runId !== before;
    for (let i = 0; i < 600 && !(i % 25 === 0 && (await startedOver())); i++) {
      await signalDecision(latest, { decisions: [{ type: 'approve' }] });
    }
    await waitFor(startedOver, 120_000, 'a new run');
    await waitFor(async () => (await latest.query(runStateQuery)).previousRunIds.includes(before));
    // The summary took its time and was taken at its first attempt.
    const history = (await h.temporal.client.workflow.getHandle(handle.workflowId, before).fetchHistory()).events ?? [];
    const summary = history.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'summarizeTranscript');
    const started = history.find((e) => Number(e.activityTaskStartedEventAttributes?.scheduledEventId) === Number(summary?.eventId));
    expect(started?.activityTaskStartedEventAttributes?.attempt).toBe(1);
    const { messages } = await latest.query(runStateQuery);
    expect(messages.map((m) => `${m.role}: ${m.content}`)).toEqual([
      expect.stringMatching(/^system: /),
      'user: Summary of the earlier conversation (older messages were compacted when this run continued as new):\nThe user asked for a report; two reads happened.',
      'user: once more',
      'assistant: third',
    ]);
    await latest.executeUpdate('end', { args: [{}] });
    expect(await latest.result()).toMatchObject({ status: 'Ended', output: 'third' });
  });
});
