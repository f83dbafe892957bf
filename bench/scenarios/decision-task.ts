/**
 * Where a decision's time goes before its tool starts, read from each sampled run's history: the decision reaching
 * the server (sent → the workflow task that applies it is scheduled), that task on the worker as the server saw it
 * (started → completed), and the server taking the task's completion to the approved tool's start (completed →
 * the worker's activity interceptor). The events the task wrote say what each side asks of the server per decision.
 */
import type { Client } from '@temporalio/client';
import type { DecisionTask } from '../schema.js';
import { summarize } from '../stats.js';
import { eventTypeName, type HistoryEvent } from './history.js';

export interface DecidedRun {
  workflowId: string;
  /** When the decision was sent, and when the tool's activity started, on the runner's and worker's clocks (markNow). */
  sent: number;
  toolStart: number;
}

type Timestamp = NonNullable<HistoryEvent['eventTime']>;

/** A history timestamp in wall-clock milliseconds with a fraction (the SDK's `tsToMs` drops it). */
function msOf(ts: Timestamp | null | undefined): number {
  const seconds = ts?.seconds ?? 0;
  return (typeof seconds === 'number' ? seconds : seconds.toNumber()) * 1000 + (ts?.nanos ?? 0) / 1e6;
}

interface Spans {
  sentToTaskScheduled: number;
  taskStartedToCompleted: number;
  taskCompletedToToolStart: number;
  taskEvents: string[];
}

/** The decision's workflow task is the one whose completion scheduled the tool's activity. */
function spansOf(events: HistoryEvent[], toolActivity: string, run: DecidedRun): Spans {
  const byId = new Map(events.map((e) => [String(e.eventId), e]));
  const scheduledTool = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === toolActivity);
  const completed = byId.get(String(scheduledTool?.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId));
  const attributes = completed?.workflowTaskCompletedEventAttributes;
  const started = byId.get(String(attributes?.startedEventId));
  const scheduled = byId.get(String(attributes?.scheduledEventId));
  if (!scheduledTool || !completed || !started || !scheduled)
    throw new Error(`${run.workflowId}: no workflow task scheduled ${toolActivity}`);
  const written = events.filter((e) => Number(e.eventId) > Number(completed.eventId) && Number(e.eventId) <= Number(scheduledTool.eventId));
  return {
    sentToTaskScheduled: msOf(scheduled.eventTime) - run.sent,
    taskStartedToCompleted: msOf(completed.eventTime) - msOf(started.eventTime),
    taskCompletedToToolStart: run.toolStart - msOf(completed.eventTime),
    taskEvents: written.map(eventTypeName),
  };
}

/** The spans of every decided run (`toolActivity` is the approved tool's activity type). */
export async function decisionTaskSpans(client: Client, runs: DecidedRun[], toolActivity: string): Promise<DecisionTask> {
  const spans: Spans[] = [];
  for (const run of runs) {
    const history = await client.workflow.getHandle(run.workflowId).fetchHistory();
    spans.push(spansOf(history.events ?? [], toolActivity, run));
  }
  const stats = (f: (s: Spans) => number) => summarize(spans.map(f));
  return {
    sentToTaskScheduled: stats((s) => s.sentToTaskScheduled),
    taskStartedToCompleted: stats((s) => s.taskStartedToCompleted),
    taskCompletedToToolStart: stats((s) => s.taskCompletedToToolStart),
    taskEvents: spans[0]!.taskEvents,
  };
}
