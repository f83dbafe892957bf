/**
 * Deciding a run the worker no longer holds in its cache (an approval that waited days) against the same decision
 * on a cached run, at several history sizes. The worker's cache holds two runs (the least the SDK allows), so
 * which run is cached is known: each sample pair pauses run E, a small run F, then run C (which pushes E out),
 * decides C (cached), then E (evicted: the worker fetches E's whole history and replays it before it can apply
 * the decision).
 *
 * Runs of a size are copies of one template run, made by the server's reset to the template's last workflow task:
 * the server copies the history and the worker replays it once to reach the pause again. The template pauses
 * after automatic read_data steps (7 events each, the realistic bulk of an agent's history); past the bytes our
 * quadratic transcript allows, it is padded with refused `decision` signals (a signal and a workflow task each).
 *
 * A run about to wait for people continues as new first once its history holds 500 events
 * (`continueAsNew.beforeWaitEvents`), so by default no paused run has 1,000 events to replay: the sizes of
 * 1,000 events and more are runs that set it off (51,200), as a run of older code is, and one more size is the
 * default's: 1,000 events of work, paused in the short run it continued as. Our workflow also continues as new
 * when Temporal suggests it (4,096 events by default), so a paused run of 5,000 events only exists on a server
 * that suggests it later: the scenario runs on its own dev server with `limit.historyCount.suggestContinueAsNew`
 * raised, and records that server's settings.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { WorkflowHandle } from '@temporalio/client';
import getPort from 'get-port';
import { decideUpdate, decisionSignal, pendingApprovalsQuery } from '../../src/contract/messages.js';
import { startDevServer } from '../../src/dev/dev-server.js';
import type { AgentWorkflowInput } from '../../src/schemas/agent-workflow-input.js';
import { BENCH_AGENT, EVICTED_STEPS, evictedPrompt, PROMPTS } from '../bench-agent.js';
import { connectClient, startWorkerChild, uniqueName, waitUntil, type BenchContext, type WorkerChild } from '../context.js';
import { markNow, type ActivityMark } from '../ipc.js';
import { FLOOR_EVICTED_SAMPLES, measureFloorEvicted, type FloorEvicted } from './evicted-floor.js';
import { ratio, round, summarize, type Stats } from '../stats.js';

/**
 * The history sizes (events) decided at, the automatic steps their templates start with, and the sample pairs a
 * full run takes of each: 200 where the target judges (the default: continued as new before waiting) and at 100
 * events. Every sample pays three replays of the size (two to pause the copies, one to decide the evicted one): at
 * 1,000 events of replay that is seconds per pair and at 5,000 most of half a minute on this machine, hence fewer
 * pairs for the two sizes of runs that opt out of continuing as new.
 */
export const EVICTED_SIZES = [
  { events: 100, steps: EVICTED_STEPS[0], fullSamples: 200, continues: false },
  { events: 1000, steps: EVICTED_STEPS[1], fullSamples: 50, continues: false },
  { events: 1000, steps: EVICTED_STEPS[1], fullSamples: 200, continues: true },
  { events: 5000, steps: EVICTED_STEPS[1], fullSamples: 10, continues: false },
] as const;
type Size = (typeof EVICTED_SIZES)[number];

/** Runs that keep their whole history while they wait set the threshold to Temporal's own limit. */
const NEVER_CONTINUE_BEFORE_WAITS = { beforeWaitEvents: 51_200 };

/** Above 5,000 events plus a decision, so the scenario's runs never continue as new on the count. */
export const EVICTED_SERVER_CONFIG = { 'limit.historyCount.suggestContinueAsNew': 8192 };

interface Pair {
  cached: Spans;
  evicted: Spans;
}
interface Spans {
  /** Decision sent → the approved tool starts (the replay, for an evicted run, is inside it). */
  sentToToolStart: number;
  /** Decision sent → the client has the update's answer. */
  sentToReturned: number;
  /** Decision sent → the next model call starts. */
  sentToNextCall: number;
}

export interface EvictedSize {
  /** Cached/evicted pairs decided. */
  samples: number;
  /** Events in the paused runs' history when decided. */
  events: number;
  /** The run continued as new before it waited (the default): `events` is the continued run's. */
  continued: boolean;
  bytes: number;
  automaticSteps: number;
  paddingSignals: number;
  cached: Record<keyof Spans, Stats>;
  evicted: Record<keyof Spans, Stats>;
  /** Evicted ÷ cached, decision sent → tool starts. */
  ratioP50: number;
  ratioP99: number;
  /** Evicted − cached at p50: what the replay costs. */
  replayCostMsP50: number;
}

export interface EvictedResult {
  failures: { events: number; error: string }[];
  serverDynamicConfig: Record<string, number>;
  sizes: EvictedSize[];
  /** The bare floor workflow, decided the same way (bench/scenarios/evicted-floor.ts). */
  floor?: FloorEvicted;
}

/** `samples` pairs per size; each size's `fullSamples` when undefined. */
export async function measureEvicted(
  ctx: BenchContext,
  samples: number | undefined,
  sizes: readonly Size[] = EVICTED_SIZES,
  /** A directory to write each size's paused template history to, for `npm run bench:replay`. */
  saveHistoriesTo?: string,
): Promise<EvictedResult> {
  const server = await startDevServer({
    forceStart: true,
    uiPort: false,
    port: await getPort(),
    namespace: ctx.namespace,
    ...(ctx.serverDbFile && { dbFile: path.join(ctx.tmpDir, 'temporal-evicted.db') }),
    dynamicConfig: EVICTED_SERVER_CONFIG,
    progress: () => {},
  });
  const { connection, client } = await connectClient(server);
  const other: BenchContext = { ...ctx, address: server.address, server, connection, client };
  const worker = await startWorkerChild(other, {
    floor: true,
    record: true,
    overrides: { maxCachedWorkflows: 2, maxConcurrentWorkflowTaskExecutions: 2 },
  });
  try {
    const measured: EvictedSize[] = [];
    const failures: { events: number; error: string }[] = [];
    for (const size of sizes) {
      const pairs = samples ?? size.fullSamples;
      ctx.log(
        `  evicted runs: ${size.events} events${size.continues ? ' of work, continued as new before waiting' : ''}, ${pairs} cached/evicted pairs`,
      );
      // A replay can outlast the workflow task timeout at the largest size: that is a result, not a crash.
      await measureSize(other, worker, size, pairs, saveHistoriesTo).then(
        (m) => measured.push(m),
        (err: Error) => {
          // An update's failure says only that it failed; its cause says why (a timed-out workflow task, …).
          const causes: string[] = [];
          for (let e: unknown = err; e instanceof Error && causes.length < 4; e = e.cause) causes.push(e.message);
          const why = causes.join(': ');
          ctx.log(`  evicted runs at ${size.events} events failed: ${why}`);
          failures.push({ events: size.events, error: why.slice(0, 1000) });
        },
      );
    }
    const floorPairs = samples ?? FLOOR_EVICTED_SAMPLES;
    ctx.log(`  evicted runs: the bare floor workflow, ${floorPairs} cached/evicted pairs`);
    const floor = await measureFloorEvicted(other, worker, floorPairs);
    return { serverDynamicConfig: EVICTED_SERVER_CONFIG, sizes: measured, failures, floor };
  } finally {
    await worker.stop();
    await connection.close().catch(() => {});
    await server.stop();
  }
}

async function measureSize(
  ctx: BenchContext,
  worker: WorkerChild,
  size: Size,
  samples: number,
  saveHistoriesTo: string | undefined,
): Promise<EvictedSize> {
  const { client } = ctx;
  // Two templates: a reset makes a new run of the same workflow id, and only one run per id may be open.
  const a = await makeTemplate(ctx, worker, size);
  const b = await makeTemplate(ctx, worker, size);
  if (saveHistoriesTo) {
    // The paused template, as every copy decided here replays it (in the JSON that `temporal workflow show` writes).
    mkdirSync(saveHistoriesTo, { recursive: true });
    const history = await client.workflow.getHandle(a.workflowId, a.runId).fetchHistory();
    writeFileSync(path.join(saveHistoriesTo, `evicted-${size.events}${size.continues ? '-continued' : ''}.json`), historyToJSON(history));
  }
  const callId = a.callId;

  const resetOf = async (template: Template): Promise<WorkflowHandle> => {
    const reset = await client.workflowService.resetWorkflowExecution({
      namespace: ctx.namespace,
      workflowExecution: { workflowId: template.workflowId, runId: template.runId },
      reason: 'bench: a copy of the template',
      workflowTaskFinishEventId: template.resetPoint,
      requestId: randomUUID(),
    });
    const copyHandle = client.workflow.getHandle(template.workflowId, reset.runId!);
    // The worker replays the copy to its pause: then it is the one run in the cache.
    await waitUntil(async () => (await copyHandle.query(pendingApprovalsQuery)).length === 1, 120_000, 'the copy to pause');
    return copyHandle;
  };

  const marksOf = async (workflowId: string) =>
    (await worker.request<Record<string, ActivityMark[]>>('marks', { workflowIds: [workflowId] }))[workflowId]!;
  const decide = async (handle: WorkflowHandle): Promise<Spans> => {
    const sent = markNow();
    await handle.executeUpdate(decideUpdate, { args: [{ decisions: [{ id: callId, type: 'approve' }] }] });
    const returned = markNow();
    await handle.result();
    const marks = await marksOf(handle.workflowId);
    const toolStart = marks.find((m) => m.activity === 'executeTool' && m.phase === 'start')?.at;
    const nextStart = marks.filter((m) => m.activity === 'callModel' && m.phase === 'start').at(-1)?.at;
    if (toolStart === undefined || nextStart === undefined) throw new Error(`${handle.workflowId}: marks ${JSON.stringify(marks)}`);
    return { sentToToolStart: toolStart - sent, sentToReturned: returned - sent, sentToNextCall: nextStart - sent };
  };

  let measuredEvents = 0;
  let measuredBytes = 0;
  const pairs: Pair[] = [];
  const fillers: WorkflowHandle[] = [];
  for (let i = 0; i < samples + 1; i++) {
    // Alternate which template is evicted, so neither side always gets the same id.
    const [e, c] = i % 2 === 0 ? [a, b] : [b, a];
    const evictedRun = await resetOf(e);
    const filler = await client.workflow.start('agentWorkflow', {
      taskQueue: worker.taskQueue,
      workflowId: uniqueName('evicted-filler'),
      args: [{ agent: BENCH_AGENT, prompt: PROMPTS.gated } satisfies AgentWorkflowInput],
    });
    await pausedCallId(filler);
    const cachedRun = await resetOf(c);
    await worker.request('marks', { workflowIds: [evictedRun.workflowId, cachedRun.workflowId, filler.workflowId] });
    fillers.push(filler);
    if (i === 0) {
      const d = await evictedRun.describe();
      measuredEvents = d.historyLength;
      measuredBytes = d.historySize ?? 0;
    }
    const cached = await decide(cachedRun);
    const evicted = await decide(evictedRun);
    if (i > 0) pairs.push({ cached, evicted });
  }
  await Promise.all(fillers.map((f) => f.terminate('bench: filler no longer needed').catch(() => {})));
  const stats = (side: keyof Pair) => ({
    sentToToolStart: summarize(pairs.map((p) => p[side].sentToToolStart)),
    sentToReturned: summarize(pairs.map((p) => p[side].sentToReturned)),
    sentToNextCall: summarize(pairs.map((p) => p[side].sentToNextCall)),
  });
  const cached = stats('cached');
  const evicted = stats('evicted');
  return {
    samples: pairs.length,
    events: measuredEvents,
    continued: size.continues,
    bytes: measuredBytes,
    automaticSteps: size.steps,
    paddingSignals: a.paddingSignals,
    cached,
    evicted,
    ratioP50: ratio(evicted.sentToToolStart.p50, cached.sentToToolStart.p50),
    ratioP99: ratio(evicted.sentToToolStart.p99, cached.sentToToolStart.p99),
    replayCostMsP50: round(evicted.sentToToolStart.p50 - cached.sentToToolStart.p50, 1),
  };
}

type EventId = NonNullable<NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number]['eventId']>;

interface Template {
  workflowId: string;
  runId: string;
  callId: string;
  resetPoint: EventId;
  paddingSignals: number;
}

/** A run paused on its gated call with about `size.events` events of history. */
async function makeTemplate(ctx: BenchContext, worker: WorkerChild, size: Size): Promise<Template> {
  const started = await ctx.client.workflow.start('agentWorkflow', {
    taskQueue: worker.taskQueue,
    workflowId: uniqueName(`evicted-${size.events}`),
    args: [
      {
        agent: BENCH_AGENT,
        prompt: evictedPrompt(size.steps),
        ...(!size.continues && { continueAsNew: NEVER_CONTINUE_BEFORE_WAITS }),
      } satisfies AgentWorkflowInput,
    ],
  });
  if (size.continues) {
    // The run pauses, then continues as new before it waits: the template is the run it continued as.
    await waitUntil(async () => (await started.describe()).runId !== started.firstExecutionRunId, 300_000, 'the run to continue as new');
  }
  const runId = (await started.describe()).runId;
  const handle = ctx.client.workflow.getHandle(started.workflowId, runId);
  const callId = await pausedCallId(handle);
  // Padding: refused decisions (an unknown call id), a few at a time (a workflow task takes what has arrived).
  let paddingSignals = 0;
  while (!size.continues && (await handle.describe()).historyLength < size.events - 12) {
    for (let i = 0; i < 20; i += 4)
      await Promise.all([0, 1, 2, 3].map(() => handle.signal(decisionSignal, { decisions: [{ id: 'no-such-call', type: 'approve' }] })));
    paddingSignals += 20;
    await waitUntil(async () => (await handle.describe()).raw.pendingWorkflowTask == null, 60_000, 'padding to be applied');
  }
  await worker.request('marks', { workflowIds: [handle.workflowId] });
  return {
    workflowId: handle.workflowId,
    runId,
    callId,
    resetPoint: await lastCompletedWorkflowTask(handle),
    paddingSignals,
  };
}

async function pausedCallId(handle: WorkflowHandle): Promise<string> {
  let id = '';
  await waitUntil(
    async () => {
      const pending = await handle.query(pendingApprovalsQuery);
      id = pending[0]?.id ?? '';
      return pending.length === 1;
    },
    300_000,
    `${handle.workflowId} to pause`,
    250,
  );
  return id;
}

/** The last WorkflowTaskCompleted event: reset there, the copy replays to the same pause. */
async function lastCompletedWorkflowTask(handle: WorkflowHandle): Promise<EventId> {
  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  const last = [...events].reverse().find((e) => e.workflowTaskCompletedEventAttributes);
  if (!last?.eventId) throw new Error(`${handle.workflowId}: no completed workflow task`);
  return last.eventId;
}
