/**
 * What durability writes: events and bytes of history per automatic and per gated step, from runs the other
 * scenarios already made, against a run that answers at once (the fixed cost of any run). Bytes are the
 * server's own count (`historySizeBytes`, what its history size limits apply to).
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { AgentWorkflowInput } from '../../src/schemas/agent-workflow-input.js';
import { BENCH_AGENT, PROMPTS } from '../bench-agent.js';
import { uniqueName, type BenchContext, type WorkerChild } from '../context.js';
import type { BenchResults } from '../schema.js';
import { linearFit, round } from '../stats.js';

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;
export type HistoryEvent = NonNullable<History['events']>[number];

export interface HistoryInputs {
  gatedUpdateRunId: string;
  /** Defaults to the update run (then the signal numbers repeat the update's). */
  gatedSignalRunId?: string;
  stepsRunId: string;
  steps: number;
}

interface Measured {
  events: number;
  bytes: number;
  types: Record<string, number>;
  history: History;
}

async function measure(ctx: BenchContext, workflowId: string): Promise<Measured> {
  const handle = ctx.client.workflow.getHandle(workflowId);
  const [history, description] = await Promise.all([handle.fetchHistory(), handle.describe()]);
  const events = history.events ?? [];
  const types: Record<string, number> = {};
  for (const e of events) types[eventTypeName(e)] = (types[eventTypeName(e)] ?? 0) + 1;
  if (description.historySize === undefined) throw new Error('the server did not report historySizeBytes');
  return { events: events.length, bytes: description.historySize, types, history };
}

/** `EVENT_TYPE_ACTIVITY_TASK_SCHEDULED` → `ActivityTaskScheduled`. */
export function eventTypeName(e: HistoryEvent): string {
  const attributes = Object.keys(e).find((k) => k.endsWith('EventAttributes') && (e as Record<string, unknown>)[k]);
  return attributes ? attributes.replace(/EventAttributes$/, '').replace(/^./, (c) => c.toUpperCase()) : String(e.eventType);
}

function diffTypes(a: Record<string, number>, b: Record<string, number>, per: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = ((a[key] ?? 0) - (b[key] ?? 0)) / per;
    if (d !== 0) out[key] = round(d, 2);
  }
  return out;
}

export async function measureHistory(
  ctx: BenchContext,
  worker: WorkerChild,
  inputs: HistoryInputs,
): Promise<Omit<BenchResults['history'], 'continueAsNew'>> {
  const directId = uniqueName('history-direct');
  const handle = await ctx.client.workflow.start('agentWorkflow', {
    taskQueue: worker.taskQueue,
    workflowId: directId,
    args: [{ agent: BENCH_AGENT, prompt: PROMPTS.direct } satisfies AgentWorkflowInput],
  });
  await handle.result();
  await worker.request('marks', { workflowIds: [directId] });
  const [direct, stepsRun, gatedUpdate, gatedSignal] = await Promise.all(
    [directId, inputs.stepsRunId, inputs.gatedUpdateRunId, inputs.gatedSignalRunId ?? inputs.gatedUpdateRunId].map((id) =>
      measure(ctx, id),
    ),
  );
  const automaticSteps = inputs.steps - 1;

  // The transcript goes to every model call: its size at each step, from the scheduled activities' inputs.
  const modelInputs = (stepsRun.history.events ?? [])
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel')
    .map((e) => (e.activityTaskScheduledEventAttributes!.input?.payloads ?? []).reduce((n, p) => n + (p.data?.length ?? 0), 0));
  const fit = linearFit(
    modelInputs.map((_, i) => i + 1),
    modelInputs,
  );

  const perAutomatic = {
    events: round((stepsRun.events - direct.events) / automaticSteps, 2),
    bytes: Math.round((stepsRun.bytes - direct.bytes) / automaticSteps),
  };
  // Projection without continue-as-new: each further step costs what a step costs now, plus the transcript's growth.
  const fixedPerStep = (stepsRun.bytes - direct.bytes - modelInputs.slice(1).reduce((n, b) => n + b, 0)) / automaticSteps;
  let projectedBytes = stepsRun.bytes;
  for (let k = inputs.steps + 1; k <= 1000; k++) projectedBytes += fixedPerStep + fit.intercept + fit.slope * k;

  return {
    directRun: { events: direct.events, bytes: direct.bytes },
    stepsRun: { steps: inputs.steps, events: stepsRun.events, bytes: stepsRun.bytes },
    gatedRunUpdate: { events: gatedUpdate.events, bytes: gatedUpdate.bytes, eventTypes: gatedUpdate.types },
    gatedRunSignal: { events: gatedSignal.events, bytes: gatedSignal.bytes },
    perAutomaticStep: { ...perAutomatic, eventTypes: diffTypes(stepsRun.types, direct.types, automaticSteps) },
    perGatedStep: {
      events: gatedUpdate.events - direct.events,
      bytes: gatedUpdate.bytes - direct.bytes,
      eventTypes: diffTypes(gatedUpdate.types, direct.types, 1),
    },
    perGatedStepSignal: { events: gatedSignal.events - direct.events, bytes: gatedSignal.bytes - direct.bytes },
    modelInputBytes: { firstStep: modelInputs[0] ?? 0, lastStep: modelInputs.at(-1) ?? 0, growthPerStep: round(fit.slope, 1) },
    projected1000Steps: {
      events: Math.round(direct.events + perAutomatic.events * 999),
      bytes: Math.round(projectedBytes),
    },
  };
}
