/**
 * Follows a run's Workflow Stream from an offset to the run's end: its events and its model text, as they are
 * published, across continue-as-new. It speaks the library's protocol (a long-poll update, then the same read by
 * query once the run has closed) with a loop of its own rather than the library's `subscribe()`, which in
 * @temporalio/workflow-streams 1.23 can spin forever at the end of a continue-as-new chain (it describes the run
 * its last poll reached, which stays "continued as new", instead of the run now current) and, as an update cannot
 * reach a closed run, ends without what was published after its last poll.
 *
 * Every item is validated: the events topic against RunEvent, the tokens topic against TokenEvent; anything else
 * is skipped. A poll costs the run history (about four events per answer): share one subscription among many
 * readers (the HTTP API does, src/api/run-stream-hub.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { decodePayloadWire, type PollResult } from '@temporalio/workflow-streams/workflow';
import { runStreamItemsQuery, streamOffsetQuery, streamPollUpdate } from '../contract/messages.js';
import { RUN_BUSY_TYPE } from '../contract/refusal-codes.js';
import { RunNotFoundError } from '../errors.js';
import { StreamOffsetError } from './run-errors.js';
import { RunEvent, type RunStreamItem } from '../schemas/run-event.js';
import { STREAM_TOPICS } from '../schemas/stream-wire.js';
import { TokenEvent } from '../schemas/token-event.js';
import { readEarlierRuns } from './earlier-runs.js';
import { refusePastEnd, untoldEnd } from './ended-run.js';
import { agentRunDescription, followableRun } from './followed-run.js';

export interface SubscribeOptions {
  /** The first offset to read (an SSE `Last-Event-ID` plus one). @default 0: all the stream still keeps */
  fromOffset?: number;
  /** Stops the subscription: the generator returns. */
  signal?: AbortSignal;
  /** The pause after a poll that brought everything there was, so a busy stream is not polled per item. @default 100 */
  pollCooldownMs?: number;
  /**
   * When the run refuses the poll because too many already wait on it (`StreamBusy`), items are read by query
   * (which costs no history) at this interval until a poll is accepted again. @default 1000
   */
  busyIntervalMs?: number;
  /**
   * While a poll waits, how often the run is described to see whether it has closed. A poll need not be answered
   * once its run has closed: the server keeps a waiting update in its cache of the run, and when that entry is
   * evicted (a busy server) and the run then completes, nothing fails the update, and the client polls for its
   * outcome forever. A closed run's rest is read by query instead. @default 5000
   */
  closedCheckMs?: number;
}

type Failure = 'draining' | 'busy' | 'truncated' | 'gone';

/**
 * The run's events and model text from `fromOffset`, until the run closes (or `signal` aborts). A run Temporal
 * terminated or timed out ends on a `run_failed` event saying so, which its own stream cannot hold; a reader may
 * start just after it, and gets nothing more. Throws RunNotFoundError, NotAnAgentRunError or StreamOffsetError
 * first when it cannot follow the run.
 */
export async function* subscribeRun(client: Client, workflowId: string, options: SubscribeOptions = {}): AsyncGenerator<RunStreamItem> {
  const { signal, pollCooldownMs = 100, busyIntervalMs = 1000, closedCheckMs = 5000 } = options;
  // Another workflow's updates and queries fail untyped (a stuck run's polls wait for a worker, as the run does).
  await agentRunDescription(client, workflowId);
  const convert = itemConverter(client);
  // Unpinned: every poll goes to the run now current, so continue-as-new is followed by polling again.
  const handle = client.workflow.getHandle(workflowId);
  let offset = options.fromOffset ?? 0;
  const pause = (ms: number) =>
    sleep(ms, undefined, { signal }).then(
      () => true,
      () => false,
    );

  while (!signal?.aborted) {
    let result: PollResult | Closed;
    try {
      result = await pollWhileOpen(client, workflowId, signal, closedCheckMs, () =>
        handle.executeUpdate(streamPollUpdate, { args: [{ topics: [], from_offset: offset }] }),
      );
    } catch (err) {
      if (signal?.aborted) return;
      const failure = classify(err, workflowId, offset);
      if (failure === 'draining' && (await pause(pollCooldownMs))) continue;
      if (failure === 'truncated' || failure === 'busy') {
        // The run no longer holds the offset (what earlier runs hold is read from them), or too many polls wait.
        const read = await readItems(client, workflowId, offset);
        yield* convert(read.items);
        offset = read.next_offset;
        if (failure === 'truncated' || read.more_ready || (await pause(busyIntervalMs))) continue;
        return;
      }
      if (failure === 'gone') {
        const closedRunId = await closedRun(client, workflowId);
        if (!closedRunId) {
          // Continued as new, or the poll's wait ran out: poll the run now current.
          if (await pause(pollCooldownMs)) continue;
          return;
        }
        result = { closedRunId };
      } else return;
    }
    if ('closedRunId' in result) {
      // Closed: what came after the last poll, by query (pinned to that run, which answers from its history).
      for (let more = true; more && !signal?.aborted;) {
        let read: PollResult;
        try {
          read = await readItems(client, workflowId, offset, result.closedRunId);
        } catch (err) {
          if (!(err instanceof StreamOffsetError)) throw err;
          // Past the run's own end: refused, unless just after the end told below, which the reader already has.
          await refusePastEnd(client, workflowId, err.offset, err.end, result.closedRunId);
          return;
        }
        yield* convert(read.items);
        offset = read.next_offset;
        more = read.more_ready;
      }
      // Terminated or timed out: said last, at the offset the stream would have given it.
      const end = signal?.aborted ? undefined : await untoldEnd(client, workflowId, result.closedRunId).catch(() => undefined);
      if (end) yield { offset, topic: 'events', event: end };
      return;
    }
    // A poll from offset 0 answers from the run's first item: what came before it is in the runs before this one.
    const held = result.items[0]?.offset ?? result.next_offset;
    if (held > offset) yield* convert(await readEarlierRuns(client, workflowId, await currentRunId(client, workflowId), offset, held));
    yield* convert(result.items);
    offset = result.next_offset;
    if (!result.more_ready && !(await pause(pollCooldownMs))) return;
  }
}

/**
 * Items from `fromOffset` without waiting (a query: no history), up to about 1 MB of the run's own; `more_ready`
 * says there is more. What the run (`runId`, or the current one) no longer holds is read from the runs before it.
 */
export async function readItems(client: Client, workflowId: string, fromOffset: number, runId?: string): Promise<PollResult> {
  const run = runId ?? (await currentRunId(client, workflowId));
  let read: PollResult;
  try {
    read = await client.workflow.getHandle(workflowId, run).query(runStreamItemsQuery, { topics: [], from_offset: fromOffset });
  } catch (err) {
    throw knownError(err, workflowId, fromOffset) ?? err;
  }
  const held = read.items[0]?.offset ?? read.next_offset;
  if (held <= fromOffset) return read;
  return { ...read, items: [...(await readEarlierRuns(client, workflowId, run, fromOffset, held)), ...read.items] };
}

/**
 * The offset the run's stream will give its next item (a run Temporal ended is told of after it: `refusePastEnd`).
 * Checked first: that the workflow id names an agent run that can answer now (`followableRun`).
 */
export async function streamEnd(client: Client, workflowId: string): Promise<number> {
  await followableRun(client, workflowId);
  try {
    return await client.workflow.getHandle(workflowId).query(streamOffsetQuery);
  } catch (err) {
    throw knownError(err, workflowId, 0) ?? err;
  }
}

/** Decodes and validates items; what is not a run event or a token event is skipped. */
export function itemConverter(client: Client): (items: PollResult['items']) => Generator<RunStreamItem> {
  const converter = client.options.loadedDataConverter.payloadConverter;
  return function* (items) {
    for (const item of items) {
      let value: unknown;
      try {
        value = converter.fromPayload(decodePayloadWire(item.data));
      } catch {
        continue;
      }
      if (item.topic === STREAM_TOPICS.events) {
        const event = RunEvent.safeParse(value);
        if (event.success) yield { offset: item.offset, topic: 'events', event: event.data };
      } else if (item.topic === STREAM_TOPICS.tokens) {
        const token = TokenEvent.safeParse(value);
        if (token.success) yield { offset: item.offset, topic: 'tokens', token: token.data };
      }
    }
  };
}

/** A poll given up because its run closed while it waited. */
interface Closed {
  closedRunId: string;
}

/**
 * `poll`, unless the run closes first (described every `checkMs` while it waits): then the poll is cancelled and
 * the closed run's id returned. Cancelled too if `signal` aborts. Each request adds a listener to the signal it is
 * given and never removes it (@temporalio/client 1.24), so each poll gets a signal of its own, dropped when it is
 * done, rather than the subscription's, which would collect one listener per poll for as long as it runs.
 */
async function pollWhileOpen<T>(
  client: Client,
  workflowId: string,
  signal: AbortSignal | undefined,
  checkMs: number,
  poll: () => Promise<T>,
): Promise<T | Closed> {
  const scoped = new AbortController();
  const forward = () => scoped.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  // Checked one at a time, so a slow server is not asked again before it has answered.
  const closed = new Promise<Closed>((resolve) => {
    const check = () =>
      closedRun(client, workflowId).then(
        (closedRunId) => (closedRunId ? resolve({ closedRunId }) : schedule()),
        () => schedule(),
      );
    const schedule = () => {
      if (!scoped.signal.aborted) timer = setTimeout(check, checkMs);
    };
    schedule();
  });
  const polled = client.withAbortSignal(scoped.signal, poll);
  try {
    return await Promise.race([polled, closed]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
    // Ends the poll's request if the run's close won the race, and stops the checks either way.
    scoped.abort();
    polled.catch(() => {});
  }
}

/** What a failed poll means for the subscription; anything else is thrown (typed when it is ours). */
function classify(err: unknown, workflowId: string, offset: number): Failure {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    switch (err.cause.type) {
      case 'StreamDraining':
      case RUN_BUSY_TYPE:
        return 'draining';
      case 'StreamBusy':
        return 'busy';
      case 'TruncatedOffset':
        return 'truncated';
      case 'AcceptedUpdateCompletedWorkflow':
        return 'gone';
    }
  }
  // A poll waiting when the run is canceled fails with the run's cancellation; the run closes right after.
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof CancelledFailure) return 'gone';
  if (err instanceof WorkflowNotFoundError || err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return 'gone';
  throw knownError(err, workflowId, offset) ?? err;
}

function knownError(err: unknown, workflowId: string, offset: number): Error | undefined {
  if (err instanceof WorkflowNotFoundError) return new RunNotFoundError(workflowId);
  const cause = err instanceof WorkflowUpdateFailedError ? err.cause : err;
  const past = /past the end of the stream \((\d+)\)/.exec(cause instanceof Error ? cause.message : '');
  if (past) return new StreamOffsetError(workflowId, offset, Number(past[1]));
  return undefined;
}

async function currentRunId(client: Client, workflowId: string): Promise<string> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).runId;
  } catch (err) {
    throw knownError(err, workflowId, 0) ?? err;
  }
}

/** The id of the workflow id's current run if it has closed; undefined while it runs. */
async function closedRun(client: Client, workflowId: string): Promise<string | undefined> {
  let description;
  try {
    description = await client.workflow.getHandle(workflowId).describe();
  } catch (err) {
    throw knownError(err, workflowId, 0) ?? err;
  }
  return description.status.name === 'RUNNING' || description.status.name === 'CONTINUED_AS_NEW' ? undefined : description.runId;
}
