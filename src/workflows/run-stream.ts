/**
 * The run's Workflow Stream (@temporalio/workflow-streams): an offset-addressed log that watchers long-poll
 * (update `__temporal_workflow_stream_poll`). The run publishes its events on `events`; the model activity
 * publishes model text on `tokens` (signal `__temporal_workflow_stream_publish`).
 *
 * Anyone who can signal the run can send that signal and update, and the library's handlers trust their input:
 * a malformed publish throws in the signal handler, which fails the workflow task on every retry, as the signal
 * stays in history (the run is wedged); a poll past the end waits forever and holds one of the few updates a run
 * may have in flight. Workflow interceptors cannot help: the SDK skips them for `__temporal_` names. So the
 * library's stream is extended here: the two methods its handlers call refuse what the wire schemas
 * (src/schemas/stream-wire.ts) and TokenEvent do not accept, and the poll update gets a validator, so a bad poll
 * is rejected before it reaches history. What is kept is bounded too: past `maxRetainedChars` the oldest entries
 * are dropped (truncated), so a flood cannot grow the state carried across continue-as-new without limit.
 */
import type { Payload } from '@temporalio/common';
import { HandlerUnfinishedPolicy } from '@temporalio/common';
import { ApplicationFailure, condition, defaultPayloadConverter, log, setHandler } from '@temporalio/workflow';
import {
  decodePayloadWire,
  encodePayloadWire,
  WorkflowStream,
  workflowStreamPollUpdate,
  type PollInput,
  type PollResult,
  type PublishInput,
  type WorkflowStreamState,
} from '@temporalio/workflow-streams/workflow';
import { runStreamItemsQuery } from '../contract/messages.js';
import type { RunEvent } from '../schemas/run-event.js';
import { STREAM_TOPICS, StreamPollInput, StreamPublishInput, StreamState } from '../schemas/stream-wire.js';
import { TokenEvent } from '../schemas/token-event.js';
import { payloadWireSize } from './payload-wire-size.js';
import { refuseWhileLate } from './late-local-result.js';
import { workflowNow } from './workflow-clock.js';

export interface RunStreamLimits {
  /**
   * Characters of base64 item data the log keeps; older entries are dropped past it. It bounds the stream's part
   * of the continue-as-new input, which Temporal caps at 2 MB with everything else the run carries.
   * @default 262144 (256 KiB)
   */
  maxRetainedChars: number;
  /**
   * Polls that may wait for new items at once; more are refused (`StreamBusy`). Temporal lets a run have 10
   * updates in flight (`history.maxInFlightUpdates`) and a waiting poll is one of them: without this limit ten
   * watchers, or anyone who can send updates, would leave no room for a human's `decide`.
   * @default 5
   */
  maxWaitingPolls: number;
  /**
   * When all `maxWaitingPolls` are taken, a new poll releases the one that has waited longest, if it has waited at
   * least this long (milliseconds of workflow time); it is answered with no items, and a watcher still there polls
   * again. A watcher that went away (a stopped `hitl watch`) leaves its poll waiting until the stream's next item:
   * on a quiet run, five of them would otherwise keep every later watcher on the slower reading by query. Long
   * enough that live watchers, six or more on one run, take turns about once a minute rather than chase each other.
   * `Infinity`: never, and polls wait as they did before (runs started before patch set 26: a poll's answer then
   * comes later in its workflow task, which replay would see).
   * @default 60000
   */
  idlePollMs: number;
  /**
   * Characters of base64 item data handed to the next run on continue-as-new: the newest entries, for watchers
   * that were polling when it happened. The rest stays readable in the run that published it (a closed run
   * answers `runStreamItems`, and the client reads earlier runs for what the current one does not hold), so
   * it need not be copied into every successor's history: most of what the run carried was its stream (120 of 174
   * KB after 140 steps), and every byte of it is fetched, decoded and checked again when an evicted run replays
   * (16 KiB of it was still a sixth of such a rebuilt run's start, by CPU profile). 4 KiB is about the last five
   * steps' events: enough for a watcher that was following along.
   * @default 4096 (4 KiB)
   */
  maxCarriedChars: number;
}

export const DEFAULT_RUN_STREAM_LIMITS: RunStreamLimits = {
  maxRetainedChars: 256 * 1024,
  maxWaitingPolls: 5,
  idlePollMs: 60_000,
  maxCarriedChars: 4 * 1024,
};

/** The run's side of its stream: typed publishing, and what continue-as-new needs. */
export interface RunStream {
  /** Run events, published by the workflow. */
  events: { publish(event: RunEvent): void };
  /** Model text; normally published by the model activity, from outside. */
  tokens: { publish(event: TokenEvent): void };
  /** Before continue-as-new: refuse new polls, release waiting ones (then wait for allHandlersFinished). */
  detachPollers(): void;
  /** After a continue-as-new that did not happen (carry-fit.ts): polls are taken again. */
  reattachPollers(): void;
  /** What the next run's `openRunStream` takes: the newest entries (`maxCarriedChars`) and the publisher state. */
  carry(): WorkflowStreamState;
  /** The offset the next item will get. */
  offset(): number;
}

/** Roughly what one poll answers at most (the library's cap). */
const MAX_ITEMS_CHARS = 1_000_000;

/** The library's members its handlers use, private in its typings (version pinned in package.json). */
interface LibraryInternals {
  onPublish(input: PublishInput): void;
  onPoll(input: PollInput): Promise<PollResult>;
  /** All that `detachPollers` sets; the library has no way back, and a run that stays must take polls again. */
  draining: boolean;
  readonly log: readonly { topic: string; payload: Payload }[];
  readonly baseOffset: number;
}
type LibraryStream = Pick<WorkflowStream, 'topic' | 'getState' | 'detachPollers' | 'truncate'> & LibraryInternals;
const LibraryStream = WorkflowStream as unknown as new (prior?: WorkflowStreamState) => LibraryStream;

const refusal = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

/** Constructs the stream (registering its signal, update and query handlers); call once, first thing in the run. */
export function openRunStream(priorState?: WorkflowStreamState, options: Partial<RunStreamLimits> = {}): RunStream {
  const limits = { ...DEFAULT_RUN_STREAM_LIMITS, ...options };
  const prior = usablePrior(priorState);
  // Entry sizes, aligned with the library's log, and polls waiting. A closure, not fields: the library's
  // constructor dispatches signals and updates that arrived before it (to the overrides below) before a
  // subclass's fields exist.
  const sizes = (prior?.log ?? []).map((item) => item.data.length);
  let retained = sizes.reduce((a, b) => a + b, 0);
  // The polls waiting, oldest first: when each began (workflow time), and whether a newer poll released it.
  const waiting: { since: number; released: boolean }[] = [];
  const releasesIdle = limits.idlePollMs !== Infinity;
  const idlest = () => (waiting.length && workflowNow() - waiting[0]!.since >= limits.idlePollMs ? waiting[0] : undefined);

  const keep = (stream: LibraryStream, added: number[]) => {
    sizes.push(...added);
    retained += added.reduce((a, b) => a + b, 0);
    let drop = 0;
    while (retained > limits.maxRetainedChars && drop < sizes.length - 1) retained -= sizes[drop++]!;
    if (drop === 0) return;
    sizes.splice(0, drop);
    stream.truncate(stream.baseOffset + drop);
  };

  const pollProblem = (stream: LibraryStream, input: unknown): string | undefined => {
    const parsed = StreamPollInput.safeParse(input);
    if (!parsed.success) return `a poll needs {topics: ("tokens" | "events")[], from_offset: integer >= 0}`;
    const end = stream.baseOffset + stream.log.length;
    if (parsed.data.from_offset > end) return `offset ${parsed.data.from_offset} is past the end of the stream (${end})`;
    return undefined;
  };

  class GuardedStream extends LibraryStream {
    override onPublish(input: unknown): void {
      const accepted = acceptPublish(input);
      if (!accepted) return;
      const before = this.log.length;
      super.onPublish(accepted);
      // The library skips a batch it has seen (same publisher, sequence not higher).
      if (this.log.length > before)
        keep(
          this,
          accepted.items.map((item) => item.data.length),
        );
    }

    override async onPoll(input: unknown): Promise<PollResult> {
      // Polls dispatched from the library's constructor skip the validator registered below.
      const problem = pollProblem(this, input);
      if (problem) throw refusal('InvalidStreamPoll', problem);
      const poll = input as PollInput;
      // The validator let this poll in only if there was room or an idle poll to release (polls the library's
      // constructor dispatches skip it, and find none idle).
      const idle = waiting.length >= limits.maxWaitingPolls ? idlest() : undefined;
      if (idle) {
        waiting.shift();
        idle.released = true;
      }
      const waiter = { since: workflowNow(), released: false };
      waiting.push(waiter);
      // The library's own wait (its onPoll), and a release; the library then answers at once.
      const ready = () =>
        (poll.from_offset !== 0 && poll.from_offset < this.baseOffset) || this.log.length > Math.max(poll.from_offset - this.baseOffset, 0);
      try {
        if (!releasesIdle) return await super.onPoll(poll);
        await condition(() => waiter.released || this.draining || ready());
        if (waiter.released && !ready()) return { items: [], next_offset: poll.from_offset, more_ready: false };
        return await super.onPoll(poll);
      } finally {
        const at = waiting.indexOf(waiter);
        if (at >= 0) waiting.splice(at, 1);
      }
    }
  }

  const stream = new GuardedStream(prior);
  setHandler(workflowStreamPollUpdate, (input) => stream.onPoll(input), {
    validator: (input) => {
      refuseWhileLate();
      // The library's own check, which this registration replaces: polls during the hand-off retry on the next run.
      if (stream.draining) throw refusal('StreamDraining', 'Workflow is draining for continue-as-new');
      const problem = pollProblem(stream, input);
      if (problem) throw refusal('InvalidStreamPoll', problem);
      if (waiting.length >= limits.maxWaitingPolls && !idlest()) {
        throw refusal('StreamBusy', `${waiting.length} polls are already waiting on this run's stream; try again later`);
      }
    },
    // A run that ends with watchers waiting is normal: they read the rest with runStreamItemsQuery.
    unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON,
  });

  setHandler(runStreamItemsQuery, (input) => {
    const problem = pollProblem(stream, input);
    if (problem) throw refusal('InvalidStreamPoll', problem);
    const topics = new Set(input.topics);
    const start = Math.max(input.from_offset - stream.baseOffset, 0);
    const items: PollResult['items'] = [];
    let chars = 0;
    for (let i = start; i < stream.log.length; i++) {
      const { topic, payload } = stream.log[i]!;
      if (topics.size > 0 && !topics.has(topic)) continue;
      const data = encodePayloadWire(payload);
      if (items.length > 0 && chars + data.length > MAX_ITEMS_CHARS) return { items, next_offset: stream.baseOffset + i, more_ready: true };
      chars += data.length;
      items.push({ topic, data, offset: stream.baseOffset + i });
    }
    return { items, next_offset: stream.baseOffset + stream.log.length, more_ready: false };
  });

  const topic = <T>(name: string) => ({
    publish(value: T) {
      const payload = defaultPayloadConverter.toPayload(value);
      stream.topic(name).publish(payload);
      keep(stream, [payloadWireSize(payload)]);
    },
  });
  return {
    events: topic<RunEvent>(STREAM_TOPICS.events),
    tokens: topic<TokenEvent>(STREAM_TOPICS.tokens),
    detachPollers: () => stream.detachPollers(),
    reattachPollers: () => {
      stream.draining = false;
    },
    carry: () => carriedTail(stream.getState(), sizes, retained, limits.maxCarriedChars),
    offset: () => stream.baseOffset + stream.log.length,
  };
}

/**
 * `state` with only its newest entries that fit in `maxChars` (`sizes`: each entry's, aligned with its log;
 * `retained`: their sum, which openRunStream keeps).
 */
function carriedTail(state: WorkflowStreamState, sizes: readonly number[], retained: number, maxChars: number): WorkflowStreamState {
  let drop = 0;
  let carried = retained;
  while (carried > maxChars && drop < state.log.length) carried -= sizes[drop++]!;
  return { ...state, log: state.log.slice(drop), base_offset: state.base_offset + drop };
}

/** The carried state if the library can load it (it would throw on a bad item); else a fresh stream. */
function usablePrior(prior: unknown): WorkflowStreamState | undefined {
  if (prior === undefined) return undefined;
  const parsed = StreamState.safeParse(prior);
  try {
    if (parsed.success) {
      for (const item of parsed.data.log) decodePayloadWire(item.data);
      return parsed.data;
    }
  } catch {
    // A bad item: fall through.
  }
  log.warn('The carried stream state is unusable; the stream starts empty');
  return undefined;
}

/** A publish the run accepts: the wire shape, and every item a valid token event. Anything else is dropped. */
function acceptPublish(input: unknown): PublishInput | undefined {
  const parsed = StreamPublishInput.safeParse(input);
  if (!parsed.success) {
    log.warn('Refused a stream publish: not a publish of token events', { problem: parsed.error.issues[0]?.message });
    return undefined;
  }
  for (const [i, item] of parsed.data.items.entries()) {
    let event: unknown;
    try {
      event = defaultPayloadConverter.fromPayload(decodePayloadWire(item.data));
    } catch (err) {
      log.warn('Refused a stream publish: an item is not a JSON payload', { item: i, problem: (err as Error).message });
      return undefined;
    }
    if (!TokenEvent.safeParse(event).success) {
      log.warn('Refused a stream publish: an item is not a token event', { item: i });
      return undefined;
    }
  }
  return parsed.data;
}
