/**
 * Tells a stuck run from a waiting one. A run is stuck when its workflow task keeps failing (a bug, or input the
 * code cannot handle: Temporal retries the task for ever, and the run answers no query and takes no decision) or
 * when no worker polls its task queue (nothing it waits for can happen, and a query or a decision would wait in
 * vain). Neither shows in the run's own status, which only the run itself can set, so this reads what Temporal
 * knows: the pending workflow task, the newest task failure in history, and the task queue's pollers. It also reads
 * what a run that looks busy is retrying, and gives lists both for each open run.
 */
import type { Client, WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import pLimit from 'p-limit';
import { isClosed } from '../contract/run-status.js';
import type { RetryingActivity } from '../schemas/retrying-activity.js';
import type { RunProblem } from '../schemas/run-problem.js';
import type { RunState } from '../schemas/run-state.js';
import type { ListedRun, RunSummary } from '../schemas/run-summary.js';
import { shellWord } from './shell-word.js';

export type { RunProblem };

export interface HealthOptions {
  /**
   * A worker whose newest poll is older than this counts as gone. An idle worker's long poll is renewed about
   * once a minute (measured: up to 59 s between renewals on the dev server), so anything under that would call a
   * healthy idle worker gone and refuse decisions it could take.
   * @default 90_000
   */
  workerGoneAfterMs?: number;
}

const DEFAULT_WORKER_GONE_AFTER_MS = 90_000;
/** A task that failed this many attempts in a row keeps failing; a timed-out one (a worker died mid-task) needs one more. */
const FAILING_AFTER_ATTEMPTS = 2;
const TIMING_OUT_AFTER_ATTEMPTS = 3;
/** A failure message shown of a stuck or retrying run is cut here: a tool may fail with a whole response body. */
const FAILURE_MESSAGE_CHARS = 2000;
// @temporalio/proto is CommonJS: Node's ESM loader exposes it as a default export only.
const { EventType, TaskQueueType, PendingActivityState } = proto.temporal.api.enums.v1;
type QueueType = proto.temporal.api.enums.v1.TaskQueueType;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;

/**
 * The newest poll on each task queue, asked once per queue and kind: a list of runs on one queue costs one
 * question, not one per run.
 */
export class PollerLookup {
  readonly #asked = new Map<string, Promise<number | undefined>>();
  constructor(private readonly client: Client) {}

  /** When a worker last polled `taskQueue` for tasks of this type (epoch ms), or undefined if none is listed. */
  lastPoll(taskQueue: string, type: QueueType): Promise<number | undefined> {
    const key = `${type}:${taskQueue}`;
    let asked = this.#asked.get(key);
    if (!asked) {
      asked = this.client.workflowService
        .describeTaskQueue({ namespace: this.client.options.namespace, taskQueue: { name: taskQueue }, taskQueueType: type })
        .then(({ pollers }) => {
          const times = (pollers ?? []).flatMap((p) => toMs(p.lastAccessTime) ?? []);
          return times.length ? Math.max(...times) : undefined;
        });
      this.#asked.set(key, asked);
    }
    return asked;
  }
}

/** `description`: the run's, when the caller has just asked for it. */
export type DiagnoseOptions = HealthOptions & { pollers?: PollerLookup; now?: number; description?: WorkflowExecutionDescription };

export async function diagnoseRun(client: Client, handle: WorkflowHandle, options: DiagnoseOptions = {}): Promise<RunProblem | undefined> {
  const now = options.now ?? Date.now();
  const pollers = options.pollers ?? new PollerLookup(client);
  const goneAfter = options.workerGoneAfterMs ?? DEFAULT_WORKER_GONE_AFTER_MS;
  const description = options.description ?? (await handle.describe());
  if (description.status.name !== 'RUNNING') return undefined;
  const ref = { client, workflowId: handle.workflowId, runId: description.runId };

  const attempts = description.raw.pendingWorkflowTask?.attempt ?? 0;
  if (attempts >= FAILING_AFTER_ATTEMPTS) {
    const failed = await failingStreak(ref);
    if (failed?.kind === 'failed' || (failed && attempts >= TIMING_OUT_AFTER_ATTEMPTS)) {
      return {
        kind: 'workflow_task_failing',
        since: failed.since,
        attempts,
        failure: failed.message,
        advice: failingAdvice(handle.workflowId, client.options.namespace, failed.eventId),
      };
    }
  }

  const taskQueue = description.taskQueue;
  const fresh = (last: number | undefined) => last !== undefined && now - last < goneAfter;
  const lastWorkflowPoll = await pollers.lastPoll(taskQueue, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW);
  const waitingActivity = description.raw.pendingActivities?.find((a) => a.state === PendingActivityState.PENDING_ACTIVITY_STATE_SCHEDULED);
  const lastActivityPoll = waitingActivity ? await pollers.lastPoll(taskQueue, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY) : undefined;
  if (fresh(lastWorkflowPoll) && (!waitingActivity || fresh(lastActivityPoll))) return undefined;

  // Since the work began waiting, else since a worker was last seen, else since the run last moved.
  const waitingSince = toMs(description.raw.pendingWorkflowTask?.scheduledTime) ?? toMs(waitingActivity?.scheduledTime);
  const since = waitingSince ?? lastWorkflowPoll ?? (await lastEventTime(ref)) ?? now;
  return {
    kind: 'no_worker',
    since: new Date(since).toISOString(),
    advice: [
      `No worker polls task queue ${taskQueue}: start one (npm run worker, or npm start) with TEMPORAL_TASK_QUEUE=${taskQueue}.`,
      'The run goes on by itself once a worker polls; nothing is lost meanwhile.',
    ],
  };
}

/**
 * The run's activities that failed and are being tried again, from its description: what a run that looks busy is
 * busy with (the model API down for minutes shows nowhere else but in the Temporal UI).
 */
export function retryingActivities(description: WorkflowExecutionDescription): RetryingActivity[] {
  if (description.status.name !== 'RUNNING') return [];
  return (description.raw.pendingActivities ?? []).flatMap((a) => {
    const attempt = a.attempt ?? 1;
    if (attempt < 2 || !a.lastFailure) return [];
    const nextAttemptAt = toIso(a.nextAttemptScheduleTime);
    return [
      {
        activity: a.activityType?.name ?? 'unknown',
        attempt,
        ...(a.maximumAttempts && { maximumAttempts: a.maximumAttempts }),
        lastFailure: (a.lastFailure.message || 'no message').slice(0, FAILURE_MESSAGE_CHARS),
        ...(nextAttemptAt && { nextAttemptAt }),
      },
    ];
  });
}

/** What a list says of an open run besides its summary: why it is stuck, and what it is retrying. */
export type RunHealth = Pick<ListedRun, 'problem' | 'retrying'>;

/** An open run's health, from one description of it. */
export async function runHealth(client: Client, handle: WorkflowHandle, options: DiagnoseOptions = {}): Promise<RunHealth> {
  const description = options.description ?? (await handle.describe());
  const problem = await diagnoseRun(client, handle, { ...options, description });
  const retrying = retryingActivities(description);
  return { ...(problem && { problem }), ...(retrying.length && { retrying }) };
}

/**
 * The runs, each open one with its health (a few runs checked at a time, one task-queue lookup for the whole list);
 * a check that fails adds nothing.
 */
export function withHealth(client: Client, runs: RunSummary[], options: HealthOptions = {}): Promise<ListedRun[]> {
  const limit = pLimit(8);
  const pollers = new PollerLookup(client);
  return Promise.all(
    runs.map((run) =>
      limit(async () => {
        if (isClosed(run.status)) return run;
        const handle = client.workflow.getHandle(run.workflowId);
        return { ...run, ...(await runHealth(client, handle, { ...options, pollers }).catch(() => ({}))) };
      }),
    ),
  );
}

/** The run's own state, with what it is retrying beside it (when anything is). */
export function withRetrying(state: RunState, description: WorkflowExecutionDescription): RunState {
  const retrying = retryingActivities(description);
  return retrying.length ? { ...state, retrying } : state;
}

/**
 * What to do, with commands that run as written (test/stuck-runs.test.ts runs them). A reset to the failed task
 * keeps every input in the order the run saw it; a reset to the last good task re-runs that task and, with
 * `--reapply-exclude All`, drops the signals and updates that came after it.
 */
function failingAdvice(workflowId: string, namespace: string, failedEventId: number): string[] {
  const run = `${namespace === 'default' ? '' : ` --namespace ${shellWord(namespace)}`} --workflow-id ${shellWord(workflowId)}`;
  const reset = `temporal workflow reset${run}`;
  return [
    'Read the failure above and the worker logs, fix the code and deploy a worker with the fix: Temporal retries the task (less and less often, at most 10 minutes apart) and the run goes on by itself.',
    `Once the fix is deployed, to retry at once rather than wait: ${reset} --event-id ${failedEventId} --reason "retry after the fix"`,
    `If a signal or an update broke it, reset to before it and without it: ${reset} --type LastWorkflowTask --reapply-exclude All --reason "drop the input that broke it"`,
    `Or end it: temporal workflow terminate${run} --reason "stuck"`,
  ];
}

interface RunRef {
  client: Client;
  workflowId: string;
  runId: string;
}

interface FailingStreak {
  /** How the newest attempt ended. */
  kind: 'failed' | 'timed_out';
  /** When the first attempt of the streak failed (ISO). */
  since: string;
  /** The newest failure's event id, a point `temporal workflow reset --event-id` takes. */
  eventId: number;
  message: string;
}

/**
 * The failed and timed-out workflow tasks since the last completed one, read from the end of history: when the
 * first of them failed, and the newest failure. Temporal writes only some attempts of a streak (later retries are
 * transient), so the first is read from history rather than from the pending task, whose times move with each
 * attempt.
 */
async function failingStreak(ref: RunRef): Promise<FailingStreak | undefined> {
  let streak: FailingStreak | undefined;
  for (const event of await newestEvents(ref, 200)) {
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) break;
    const failed = event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED;
    if (!failed && event.eventType !== EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT) continue;
    const at = toIso(event.eventTime) ?? new Date().toISOString();
    streak ??= {
      kind: failed ? 'failed' : 'timed_out',
      since: at,
      eventId: Number(event.eventId ?? 0),
      message: failed
        ? (event.workflowTaskFailedEventAttributes?.failure?.message || 'the workflow task failed').slice(0, FAILURE_MESSAGE_CHARS)
        : 'the workflow task timed out: a worker took it and never answered (did it crash, or run out of memory?)',
    };
    streak.since = at;
  }
  return streak;
}

/** The newest failure message of the run's workflow tasks, whatever came after it (for a refused update). */
export async function lastTaskFailureMessage(client: Client, workflowId: string, runId: string): Promise<string | undefined> {
  const events = await newestEvents({ client, workflowId, runId }, 100);
  const failed = events.find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
  return failed?.workflowTaskFailedEventAttributes?.failure?.message?.slice(0, FAILURE_MESSAGE_CHARS) ?? undefined;
}

async function lastEventTime(ref: RunRef): Promise<number | undefined> {
  const [newest] = await newestEvents(ref, 1);
  return toMs(newest?.eventTime);
}

async function newestEvents(ref: RunRef, count: number): Promise<HistoryEvent[]> {
  const response = await ref.client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace: ref.client.options.namespace,
    execution: { workflowId: ref.workflowId, runId: ref.runId },
    maximumPageSize: count,
  });
  return response.history?.events ?? [];
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
