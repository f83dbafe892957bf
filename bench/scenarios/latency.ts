/**
 * Decision latency, four ways on the same server and worker process, plus the LangGraph peer, interleaved sample
 * by sample so the noise of a shared machine falls on every side alike: our agent workflow decided by the
 * `decide` update and by the `decision` signal, the floor workflow decided the same two ways, and a LangGraph
 * thread resumed with Command({ resume }). Every sample is one paused run, decided while nothing else runs. A
 * decision's latency depends on the sample taken just before it, so every series follows every series equally
 * often (bench/sample-order.ts).
 */
import type { WorkflowHandle } from '@temporalio/client';
import pLimit from 'p-limit';
import type { AgentWorkflowInput } from '../../src/schemas/agent-workflow-input.js';
import type { DecideInput } from '../../src/schemas/decision.js';
import { decideUpdate, decisionSignal, pendingApprovalsQuery } from '../../src/contract/messages.js';
import { BENCH_AGENT, GATED_CALL_ID, PROMPTS } from '../bench-agent.js';
import { uniqueName, waitUntil, type BenchContext, type WorkerChild } from '../context.js';
import { floorDecideUpdate, floorDecisionSignal, floorReadyQuery } from '../floor/workflows.js';
import { openaiAgentsApprovalWorkflow, peerApprovalSignal, peerPendingQuery } from '../peer/openai-agents/workflows.js';
import { markNow, type ActivityMark, type BenchChild } from '../ipc.js';
import type { PeerSample } from '../peer/langgraph-peer.js';
import type { DecisionTask, LatencySeries } from '../schema.js';
import { decisionTaskSpans } from './decision-task.js';
import { SAMPLE_ORDERS, type SampleOrderName } from '../sample-order.js';
import { median, round, summarize } from '../stats.js';

interface Sample {
  /** The decided run, when one run of its workflow holds the decision and the tool (not the peers). */
  workflowId?: string;
  sent: number;
  /** Absent for the peer: resuming a LangGraph thread returns when the whole graph has run. */
  returned?: number;
  toolStart: number;
  toolEnd: number;
  nextStart: number;
  modelRequest?: number;
  /** The series sampled just before this one (absent for a batch's first sample). */
  after?: SeriesName;
}

/**
 * The floor the series `floorUpdate` and `floorSignal` run (bench/floor/workflows.ts): the bare floor the target is
 * judged against, or the floor that pauses as ours does, which an experiment compares ours with.
 */
export type FloorWorkflow = 'floorDecisionWorkflow' | 'floorPausedLikeOursWorkflow';

export type SeriesName = 'oursUpdate' | 'oursSignal' | 'floorUpdate' | 'floorSignal' | 'peer' | 'openaiAgents';
export const ALL_SERIES: SeriesName[] = ['oursUpdate', 'floorUpdate', 'oursSignal', 'floorSignal', 'peer', 'openaiAgents'];

const approve: DecideInput = { decisions: [{ id: GATED_CALL_ID, type: 'approve' }] };

export interface LatencyResult {
  series: Partial<Record<SeriesName, LatencySeries>>;
  /** A measured run of each kind, for the history scenario. */
  gatedUpdateRunId: string;
  /** A decided run of the OpenAI-Agents-pattern peer (a chain of two runs), for its history cost. */
  openaiAgentsRunId?: string;
  gatedSignalRunId?: string;
}

/**
 * Samples are taken in batches of at most this many per series: every run of a batch is started and paused before
 * its first sample and stays in the worker's cache until decided, so a batch bounds the runs cached at once (and the
 * heap the samples are taken with) however many samples a run asks for.
 */
export const LATENCY_BATCH = 200;

/** The workflow cache a latency worker needs so that no sampled run is evicted before it is decided: ours by update and by signal. */
export function latencyCacheSize(samples: number, warmup: number): number {
  return 2 * (Math.min(samples, LATENCY_BATCH) + warmup) + 200;
}

export async function measureDecisionLatency(
  ctx: BenchContext,
  worker: WorkerChild,
  peer: BenchChild | undefined,
  options: { series?: SeriesName[]; samples?: number; order?: SampleOrderName; floor?: FloorWorkflow } = {},
): Promise<LatencyResult> {
  const series = (options.series ?? ALL_SERIES).filter(
    (name) => (name !== 'peer' || peer) && (name !== 'openaiAgents' || worker.openaiAgentsTaskQueue),
  );
  const n = options.samples ?? ctx.settings.latencySamples;
  const samples = Object.fromEntries(series.map((name) => [name, [] as Sample[]])) as Record<SeriesName, Sample[]>;
  let first: BatchResult | undefined;
  for (let taken = 0, batch = 1; taken < n; batch++) {
    const size = Math.min(LATENCY_BATCH, n - taken);
    if (n > LATENCY_BATCH) ctx.log(`  batch ${batch}: ${size} samples per series`);
    const result = await measureBatch(
      ctx,
      worker,
      peer,
      series,
      size,
      options.order ?? 'balanced',
      options.floor ?? 'floorDecisionWorkflow',
    );
    for (const name of series) samples[name].push(...result.samples[name]);
    first ??= result;
    taken += size;
  }

  const decisionTasks = new Map<SeriesName, DecisionTask>();
  for (const name of series) {
    const toolActivity =
      name === 'oursUpdate' || name === 'oursSignal'
        ? 'executeTool'
        : name === 'floorUpdate' || name === 'floorSignal'
          ? 'floorTool'
          : undefined;
    if (!toolActivity) continue;
    const runs = samples[name].map((s) => ({ workflowId: s.workflowId!, sent: s.sent, toolStart: s.toolStart }));
    decisionTasks.set(name, await decisionTaskSpans(ctx.client, runs, toolActivity));
  }
  return {
    series: Object.fromEntries(
      series.map((name) => {
        const task = decisionTasks.get(name);
        // The target's span, sample by sample, for its ratio's interval (ours and the floor by update).
        const keep = name === 'oursUpdate' || name === 'floorUpdate';
        return [name, { ...toSeries(samples[name], keep), ...(task && { decisionTask: task }) }];
      }),
    ),
    gatedUpdateRunId: first!.gatedUpdateRunId,
    gatedSignalRunId: first!.gatedSignalRunId,
    openaiAgentsRunId: first!.openaiAgentsRunId,
  };
}

interface BatchResult {
  samples: Record<SeriesName, Sample[]>;
  gatedUpdateRunId: string;
  gatedSignalRunId?: string;
  openaiAgentsRunId?: string;
}

/** One batch: its runs started and paused, then decided round by round, every series once a round. */
async function measureBatch(
  ctx: BenchContext,
  worker: WorkerChild,
  peer: BenchChild | undefined,
  series: SeriesName[],
  n: number,
  orderName: SampleOrderName,
  floorWorkflow: FloorWorkflow,
): Promise<BatchResult> {
  const { warmupSamples: warmup } = ctx.settings;
  const total = n + warmup;
  const tag = uniqueName('lat');
  const { client } = ctx;

  // Every run is started and paused before the first sample.
  const limit = pLimit(20);
  const startOurs = (kind: string) =>
    series.includes(kind === 'update' ? 'oursUpdate' : 'oursSignal') ? startOursRuns(kind) : Promise.resolve([]);
  const startFloor = (kind: string) =>
    series.includes(kind === 'update' ? 'floorUpdate' : 'floorSignal') ? startFloorRuns(kind) : Promise.resolve([]);
  const startOursRuns = (kind: string) =>
    Promise.all(
      Array.from({ length: total }, (_, i) =>
        limit(() =>
          client.workflow.start('agentWorkflow', {
            taskQueue: worker.taskQueue,
            workflowId: `${tag}-${kind}-${i}`,
            args: [{ agent: BENCH_AGENT, prompt: PROMPTS.gated } satisfies AgentWorkflowInput],
          }),
        ),
      ),
    );
  const startFloorRuns = (kind: string) =>
    Promise.all(
      Array.from({ length: total }, (_, i) =>
        limit(() =>
          client.workflow.start(floorWorkflow, {
            taskQueue: worker.floorTaskQueue!,
            workflowId: `${tag}-floor-${kind}-${i}`,
            args: [],
          }),
        ),
      ),
    );
  const [oursUpdate, oursSignal, floorUpdate, floorSignal] = [
    await startOurs('update'),
    await startOurs('signal'),
    await startFloor('update'),
    await startFloor('signal'),
  ];
  const openaiAgentsRuns = series.includes('openaiAgents')
    ? await Promise.all(
        Array.from({ length: total }, (_, i) =>
          limit(() =>
            client.workflow.start(openaiAgentsApprovalWorkflow, {
              taskQueue: worker.openaiAgentsTaskQueue!,
              workflowId: `${tag}-openai-agents-${i}`,
              args: [{ prompt: PROMPTS.gated }],
            }),
          ),
        ),
      )
    : [];
  const openaiAgentsCallIds = new Map<string, string>();
  const peerThreads = Array.from({ length: total }, (_, i) => `${tag}-peer-${i}`);
  if (peer) await peer.request('pause', { threadIds: peerThreads, concurrency: 4 });
  await Promise.all([
    ...[...oursUpdate, ...oursSignal].map((h) =>
      limit(() => waitUntil(async () => (await h.query(pendingApprovalsQuery)).length === 1, 600_000, `${h.workflowId} to pause`)),
    ),
    ...[...floorUpdate, ...floorSignal].map((h) => limit(() => h.query(floorReadyQuery))),
    ...openaiAgentsRuns.map((h) =>
      limit(() =>
        waitUntil(
          async () => {
            const callId = await h.query(peerPendingQuery);
            if (callId) openaiAgentsCallIds.set(h.workflowId, callId);
            return !!callId;
          },
          600_000,
          `${h.workflowId} to pause`,
        ),
      ),
    ),
  ]);
  ctx.log(`  ${total * series.length} runs paused (${series.join(', ')}); sampling`);

  const marksOf = async (workflowId: string) =>
    (await worker.request<Record<string, ActivityMark[]>>('marks', { workflowIds: [workflowId] }))[workflowId]!;

  const oursSample = async (handle: WorkflowHandle, via: 'update' | 'signal'): Promise<Sample> => {
    ctx.model.clearRequests();
    const sent = markNow();
    if (via === 'update') await handle.executeUpdate(decideUpdate, { args: [approve] });
    else await handle.signal(decisionSignal, approve);
    const returned = markNow();
    const result = (await handle.result()) as { status: string };
    if (result.status !== 'Completed') throw new Error(`${handle.workflowId} ended ${result.status}`);
    const marks = await marksOf(handle.workflowId);
    const toolStart = marks.find((m) => m.activity === 'executeTool' && m.phase === 'start')?.at;
    const toolEnd = marks.find((m) => m.activity === 'executeTool' && m.phase === 'end')?.at;
    const nextStart = marks.filter((m) => m.activity === 'callModel' && m.phase === 'start').at(-1)?.at;
    const requests = ctx.model.requests.filter((r) => r.receivedAt >= sent);
    if (toolStart === undefined || toolEnd === undefined || nextStart === undefined || nextStart < toolEnd || requests.length !== 1) {
      throw new Error(`${handle.workflowId}: unexpected activity marks ${JSON.stringify(marks)} / ${requests.length} model requests`);
    }
    return { workflowId: handle.workflowId, sent, returned, toolStart, toolEnd, nextStart, modelRequest: requests[0]!.receivedAt };
  };

  const floorSample = async (handle: WorkflowHandle, via: 'update' | 'signal'): Promise<Sample> => {
    const sent = markNow();
    if (via === 'update') await handle.executeUpdate(floorDecideUpdate, { args: [approve] });
    else await handle.signal(floorDecisionSignal, approve);
    const returned = markNow();
    await handle.result();
    const marks = await marksOf(handle.workflowId);
    const toolStart = marks.find((m) => m.activity === 'floorTool' && m.phase === 'start')?.at;
    const toolEnd = marks.find((m) => m.activity === 'floorTool' && m.phase === 'end')?.at;
    const nextStart = marks.find((m) => m.activity === 'floorNext' && m.phase === 'start')?.at;
    if (toolStart === undefined || toolEnd === undefined || nextStart === undefined) throw new Error(`${handle.workflowId}: missing marks`);
    return { workflowId: handle.workflowId, sent, returned, toolStart, toolEnd, nextStart };
  };

  // The integration's pattern: a signal, then the run continues as new; result() follows the chain.
  const openaiAgentsSample = async (handle: WorkflowHandle): Promise<Sample> => {
    ctx.model.clearRequests();
    const sent = markNow();
    await handle.signal(peerApprovalSignal, { callId: openaiAgentsCallIds.get(handle.workflowId)!, approved: true });
    const returned = markNow();
    await handle.result();
    const marks = await marksOf(handle.workflowId);
    const toolStart = marks.find((m) => m.activity === 'peerWriteFile' && m.phase === 'start')?.at;
    const toolEnd = marks.find((m) => m.activity === 'peerWriteFile' && m.phase === 'end')?.at;
    const nextStart = marks.filter((m) => m.activity === 'peerInvokeModel' && m.phase === 'start').at(-1)?.at;
    const requests = ctx.model.requests.filter((r) => r.receivedAt >= sent);
    if (toolStart === undefined || toolEnd === undefined || nextStart === undefined) throw new Error(`${handle.workflowId}: missing marks`);
    return { sent, returned, toolStart, toolEnd, nextStart, modelRequest: requests[0]?.receivedAt };
  };

  const peerSample = async (threadId: string): Promise<Sample> => {
    ctx.model.clearRequests();
    const s = await peer!.request<PeerSample>('sample', { threadId });
    const requests = ctx.model.requests.filter((r) => r.receivedAt >= s.sent);
    return { sent: s.sent, toolStart: s.toolStart, toolEnd: s.toolEnd, nextStart: s.nextModelStart, modelRequest: requests[0]?.receivedAt };
  };

  const samples: Record<SeriesName, Sample[]> = {
    oursUpdate: [],
    oursSignal: [],
    floorUpdate: [],
    floorSignal: [],
    peer: [],
    openaiAgents: [],
  };
  // Every series follows every series equally often (bench/sample-order.ts), not the same one sample after sample.
  const taken = new Map<SeriesName, number>(series.map((name) => [name, 0]));
  let after: SeriesName | undefined;
  for (const [step, index] of SAMPLE_ORDERS[orderName](series.length, total).entries()) {
    const name = series[index]!;
    const i = taken.get(name)!;
    taken.set(name, i + 1);
    const sample =
      name === 'oursUpdate'
        ? await oursSample(oursUpdate[i]!, 'update')
        : name === 'oursSignal'
          ? await oursSample(oursSignal[i]!, 'signal')
          : name === 'floorUpdate'
            ? await floorSample(floorUpdate[i]!, 'update')
            : name === 'floorSignal'
              ? await floorSample(floorSignal[i]!, 'signal')
              : name === 'openaiAgents'
                ? await openaiAgentsSample(openaiAgentsRuns[i]!)
                : await peerSample(peerThreads[i]!);
    if (i >= warmup) samples[name].push({ ...sample, ...(after && { after }) });
    after = name;
    if ((step + 1) % (50 * series.length) === 0) ctx.log(`  ${(step + 1) / series.length}/${total} samples per series`);
  }
  return {
    samples,
    gatedUpdateRunId: oursUpdate[warmup]!.workflowId,
    gatedSignalRunId: oursSignal[warmup]?.workflowId,
    openaiAgentsRunId: openaiAgentsRuns[warmup]?.workflowId,
  };
}

function toSeries(samples: Sample[], keepToolStarts: boolean): LatencySeries {
  const span = (f: (s: Sample) => number | undefined) => {
    const values = samples.map(f).filter((v): v is number => v !== undefined);
    return values.length === samples.length ? summarize(values) : undefined;
  };
  const withReturn = samples.every((s) => s.returned !== undefined);
  return {
    ...(withReturn && { decisionToNextCall: span((s) => s.nextStart - s.returned!)! }),
    sentToToolStart: span((s) => s.toolStart - s.sent)!,
    sentToToolEnd: span((s) => s.toolEnd - s.sent)!,
    sentToNextCall: span((s) => s.nextStart - s.sent)!,
    ...(withReturn && { sentToReturned: span((s) => s.returned! - s.sent)! }),
    ...(withReturn &&
      samples.every((s) => s.modelRequest !== undefined) && { returnedToModelRequest: span((s) => s.modelRequest! - s.returned!)! }),
    ...(keepToolStarts && { sentToToolStartMs: samples.map((s) => round(s.toolStart - s.sent, 3)) }),
    ...(keepToolStarts && { sentToToolStartAfter: byPrevious(samples) }),
  };
}

/** Decision sent → tool starts at p50, by the series sampled just before. */
function byPrevious(samples: Sample[]): Record<string, { n: number; p50: number }> {
  const groups = new Map<SeriesName, number[]>();
  for (const s of samples) {
    if (!s.after) continue;
    if (!groups.has(s.after)) groups.set(s.after, []);
    groups.get(s.after)!.push(s.toolStart - s.sent);
  }
  return Object.fromEntries([...groups].map(([name, values]) => [name, { n: values.length, p50: round(median(values)) }]));
}
