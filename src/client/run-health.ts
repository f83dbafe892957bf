/**
 * Tells a stuck run from a waiting one. A run is stuck when its workflow task keeps failing (a bug, or input the
 * code cannot handle: Temporal retries the task forever, and the run answers no query) or when its work waits on
 * a task queue no worker polls. Neither shows in the run's own status, which only the run itself can set, so
 * this reads what Temporal knows: the pending workflow task, the newest task failure in history, and the task
 * queue's pollers.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { RunProblem } from '../schemas/run-problem.js';

export type { RunProblem };

/** A task waiting longer than this with no worker polling its queue counts as stuck. */
const NO_WORKER_AFTER_MS = 10_000;
/** A poller seen within this long counts as present (Temporal keeps pollers listed for a few minutes). */
const POLLER_FRESH_MS = 60_000;
// @temporalio/proto is CommonJS: Node's ESM loader exposes it as a default export only.
const { EventType, TaskQueueType, PendingWorkflowTaskState, PendingActivityState } = proto.temporal.api.enums.v1;

export async function diagnoseRun(client: Client, handle: WorkflowHandle, now = Date.now()): Promise<RunProblem | undefined> {
  const description = await handle.describe();
  if (description.status.name !== 'RUNNING') return undefined;
  const task = description.raw.pendingWorkflowTask;
  const attempts = task?.attempt ?? 0;
  if (task && attempts >= 2) {
    const failure = await newestTaskFailure(client, handle.workflowId, description.runId);
    return {
      kind: 'workflow_task_failing',
      since: toIso(task.originalScheduledTime) ?? new Date(now).toISOString(),
      attempts,
      ...(failure && { failure }),
      advice: failingAdvice(handle.workflowId),
    };
  }
  const taskQueue = description.taskQueue;
  const scheduled =
    task && task.state === PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_SCHEDULED ? toMs(task.scheduledTime) : undefined;
  const activity = description.raw.pendingActivities?.find((a) => a.state === PendingActivityState.PENDING_ACTIVITY_STATE_SCHEDULED);
  const waitingSince = scheduled ?? (activity ? (toMs(activity.scheduledTime) ?? now) : undefined);
  if (waitingSince === undefined || now - waitingSince < NO_WORKER_AFTER_MS) return undefined;
  const type = scheduled !== undefined ? TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW : TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY;
  if (await hasPollers(client, taskQueue, type, now)) return undefined;
  return {
    kind: 'no_worker',
    since: new Date(waitingSince).toISOString(),
    advice: [
      `No worker polls task queue ${taskQueue}: start one (npm run worker, or npm start) with TEMPORAL_TASK_QUEUE=${taskQueue}.`,
      'The run goes on by itself once a worker polls; nothing is lost meanwhile.',
    ],
  };
}

function failingAdvice(workflowId: string): string[] {
  return [
    'Read the failure above and the worker logs; deploy a worker with the fix: the task is retried and the run goes on by itself.',
    `If the run cannot go on, reset it to before the input that broke it: temporal workflow reset --workflow-id ${workflowId} --type LastWorkflowTask (or --event-id N; see temporal workflow show).`,
    `Or end it: temporal workflow terminate --workflow-id ${workflowId} --reason "stuck"`,
  ];
}

/** The message of the newest WorkflowTaskFailed event, read from the end of history. */
async function newestTaskFailure(client: Client, workflowId: string, runId: string): Promise<string | undefined> {
  const response = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 100,
  });
  const failed = response.history?.events?.find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
  const failure = failed?.workflowTaskFailedEventAttributes?.failure;
  return failure?.message ? failure.message.slice(0, 2000) : undefined;
}

async function hasPollers(
  client: Client,
  taskQueue: string,
  type: proto.temporal.api.enums.v1.TaskQueueType,
  now: number,
): Promise<boolean> {
  const { pollers } = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: type,
  });
  return (pollers ?? []).some((p) => (toMs(p.lastAccessTime) ?? 0) > now - POLLER_FRESH_MS);
}

type Timestamp = { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined;

function toMs(ts: Timestamp): number | undefined {
  if (!ts?.seconds) return undefined;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : ts.seconds.toNumber();
  return seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

function toIso(ts: Timestamp): string | undefined {
  const ms = toMs(ts);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}
