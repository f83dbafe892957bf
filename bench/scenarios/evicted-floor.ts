/**
 * The floor of deciding an evicted run: the bare workflow of section 1 (bench/floor/workflows.ts: no zod, no search
 * attributes, no transcript), decided cached and evicted in the same worker process and on the same server as our
 * runs of bench/scenarios/evicted.ts, pair by pair in the same way. What rebuilding any run costs on this SDK and
 * server, before anything of ours: the part of the evicted ÷ cached ratio no change of ours can remove.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { floorDecideUpdate, floorReadyQuery } from '../floor/workflows.js';
import { uniqueName, waitUntil, type BenchContext, type WorkerChild } from '../context.js';
import { markNow, type ActivityMark } from '../ipc.js';
import { ratio, round, summarize, type Stats } from '../stats.js';

export interface FloorEvicted {
  /** Cached/evicted pairs decided. */
  samples: number;
  /** Events in a paused floor run's history when decided. */
  events: number;
  bytes: number;
  cached: { sentToToolStart: Stats; sentToReturned: Stats };
  evicted: { sentToToolStart: Stats; sentToReturned: Stats };
  ratioP50: number;
  ratioP99: number;
  replayCostMsP50: number;
}

interface Spans {
  sentToToolStart: number;
  sentToReturned: number;
}

/** Pairs a full run takes: a floor run is small, so as many as section 6's smallest size. */
export const FLOOR_EVICTED_SAMPLES = 200;

/** `worker` runs the floor with the same two-run cache as our workflow (its overrides apply to both). */
export async function measureFloorEvicted(ctx: BenchContext, worker: WorkerChild, samples: number): Promise<FloorEvicted> {
  const taskQueue = worker.floorTaskQueue;
  if (!taskQueue) throw new Error('the evicted scenario needs a worker that runs the floor');
  const start = async (): Promise<WorkflowHandle> => {
    const handle = await ctx.client.workflow.start('floorDecisionWorkflow', { taskQueue, workflowId: uniqueName('evicted-floor') });
    // Paused and in the cache: its first workflow task has run (a query of an evicted run would bring it back).
    await waitUntil(() => handle.query(floorReadyQuery), 30_000, 'the floor run to wait');
    return handle;
  };
  const decide = async (handle: WorkflowHandle): Promise<Spans> => {
    const sent = markNow();
    await handle.executeUpdate(floorDecideUpdate, { args: [{}] });
    const returned = markNow();
    await handle.result();
    const marks = (await worker.request<Record<string, ActivityMark[]>>('marks', { workflowIds: [handle.workflowId] }))[handle.workflowId]!;
    const toolStart = marks.find((m) => m.activity === 'floorTool' && m.phase === 'start')?.at;
    if (toolStart === undefined) throw new Error(`${handle.workflowId}: marks ${JSON.stringify(marks)}`);
    return { sentToToolStart: toolStart - sent, sentToReturned: returned - sent };
  };

  const pairs: { cached: Spans; evicted: Spans }[] = [];
  const fillers: WorkflowHandle[] = [];
  let events = 0;
  let bytes = 0;
  for (let i = 0; i < samples + 1; i++) {
    // As for our runs: E pauses, then F, then C, which pushes E out of the two-run cache.
    const evictedRun = await start();
    const filler = await start();
    const cachedRun = await start();
    fillers.push(filler);
    if (i === 0) {
      const d = await cachedRun.describe();
      events = d.historyLength;
      bytes = d.historySize ?? 0;
    }
    const cached = await decide(cachedRun);
    const evicted = await decide(evictedRun);
    // The first pair warms the worker up, as in evicted.ts.
    if (i > 0) pairs.push({ cached, evicted });
  }
  await Promise.all(fillers.map((f) => f.terminate('bench: filler no longer needed').catch(() => {})));
  const stats = (side: 'cached' | 'evicted') => ({
    sentToToolStart: summarize(pairs.map((p) => p[side].sentToToolStart)),
    sentToReturned: summarize(pairs.map((p) => p[side].sentToReturned)),
  });
  const cached = stats('cached');
  const evicted = stats('evicted');
  return {
    samples: pairs.length,
    events,
    bytes,
    cached,
    evicted,
    ratioP50: ratio(evicted.sentToToolStart.p50, cached.sentToToolStart.p50),
    ratioP99: ratio(evicted.sentToToolStart.p99, cached.sentToToolStart.p99),
    replayCostMsP50: round(evicted.sentToToolStart.p50 - cached.sentToToolStart.p50, 1),
  };
}
