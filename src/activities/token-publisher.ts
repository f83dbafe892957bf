/**
 * Publishes a streaming model call's text to its run's Workflow Stream (`tokens` topic) in batches. Each publish
 * reaches the workflow as a signal, which costs history, so deltas are coalesced: one event per batch interval,
 * or sooner when a batch reaches its size. Watching is best effort: a failed publish is logged and never fails
 * the model call.
 *
 * A fast model writes events faster than signals go out. The stream client sends all it holds in one signal (its
 * `maxBatchSize` only starts a send early), and the run drops a publish of more than MAX_ITEMS_PER_PUBLISH events
 * whole, so the events wait here and are handed to the client a publish at a time: at most MAX_ITEMS_PER_PUBLISH
 * events and MAX_PUBLISH_DATA_CHARS of their data, the next once the last was delivered and, when text is still
 * waiting, a batch interval later, so a watcher polling along reads each publish before the run's stream, which
 * keeps only its newest 256 KiB, drops it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { Logger } from '@temporalio/common';
import { FlushTimeoutError, WorkflowStreamClient } from '@temporalio/workflow-streams/client';
import { jsonStringBytes } from '../bounds/truncate.js';
import { MAX_ITEMS_PER_PUBLISH, MAX_PUBLISH_DATA_CHARS, STREAM_TOPICS } from '../schemas/stream-wire.js';
import { TOKEN_TEXT_MAX_CHARS, type TokenEvent } from '../schemas/token-event.js';

export interface TokenBatching {
  /**
   * Most time between a delta arriving and its batch being sent; the first delta of a call goes at once. Each
   * batch is one signal in the run's history (bench/scenarios/streaming.ts measures the cost).
   * @default 250
   */
  batchIntervalMs: number;
  /** A batch is sent as soon as it holds this many characters. @default 1024 (at most TOKEN_TEXT_MAX_CHARS) */
  maxBatchChars: number;
  /**
   * The interval widens by `batchIntervalMs` after every this many batches of one call (250 ms, then 500 ms, ...),
   * so a very long answer adds history roughly as the square root of its length rather than in proportion.
   * @default 100
   */
  widenEvery: number;
  /** How long the end of the call waits for the last batches to be delivered. @default 5000 */
  closeTimeoutMs: number;
}

export const DEFAULT_TOKEN_BATCHING: TokenBatching = { batchIntervalMs: 250, maxBatchChars: 1024, widenEvery: 100, closeTimeoutMs: 5000 };

export interface TokenPublisherOptions extends TokenBatching {
  step: number;
  attempt: number;
  /** The activity's logger: problems at warn, each batch sent at debug (with its time, for latency measurements). */
  log: Pick<Logger, 'warn' | 'debug'>;
}

/** Pause before a publish the stream client failed to send is tried again (it gives up after a minute). */
const RETRY_MS = 1000;

/** An event cut from the text, with about what its item takes in a publish (base64 of its JSON payload). */
interface Queued {
  event: TokenEvent;
  chars: number;
}

export class TokenPublisher {
  private pending = '';
  private seq = 0;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private readonly maxBatchChars: number;
  /** Events cut from the text and not yet handed to the stream client, oldest first. */
  private readonly queue: Queued[] = [];
  /** Whether `publishQueued` is running; what it will have delivered. */
  private publishing = false;
  private delivered: Promise<void> = Promise.resolve();

  /**
   * A publisher to the current activity's run, marked with the step and the activity's attempt; undefined (and
   * logged) if the stream client cannot be made, as the call goes on without watchers.
   */
  static forActivity(step: number, batching: TokenBatching): TokenPublisher | undefined {
    const activity = Context.current();
    try {
      // A batch that cannot be delivered for a minute is dropped (the library's default waits ten).
      const stream = WorkflowStreamClient.fromWithinActivity({ batchInterval: batching.batchIntervalMs, maxRetryDuration: '1 minute' });
      return new TokenPublisher(stream, { ...batching, step, attempt: activity.info.attempt, log: activity.log });
    } catch (err) {
      activity.log.warn('Model tokens will not be streamed: no run stream client', { problem: (err as Error).message });
      return undefined;
    }
  }

  constructor(
    private readonly stream: WorkflowStreamClient,
    private readonly options: TokenPublisherOptions,
  ) {
    this.maxBatchChars = Math.min(Math.max(1, options.maxBatchChars), TOKEN_TEXT_MAX_CHARS);
  }

  /** Adds a content delta; it is sent now if the interval since the last batch has passed, else at its end. */
  add(text: string): void {
    if (!text) return;
    this.pending += text;
    if (this.pending.length >= this.maxBatchChars) return this.send();
    if (this.timer) return;
    const interval = this.options.batchIntervalMs * (1 + Math.floor(this.seq / Math.max(1, this.options.widenEvery)));
    const wait = this.lastSentAt + interval - performance.now();
    if (wait <= 0) this.send();
    else this.timer = setTimeout(() => this.send(), wait);
  }

  /** Sends what is left and waits (up to closeTimeoutMs) for delivery; what is still waiting then goes on after. Never throws. */
  async close(): Promise<void> {
    this.send();
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed out'>((resolve) => {
      timeout = setTimeout(() => resolve('timed out'), this.options.closeTimeoutMs);
    });
    try {
      const outcome = await Promise.race([this.delivered.then(() => this.stream[Symbol.asyncDispose]()), timedOut]);
      if (outcome === 'timed out') this.warn(`not delivered within ${this.options.closeTimeoutMs} ms`);
    } catch (err) {
      this.warn((err as Error).message ?? String(err));
    } finally {
      clearTimeout(timeout);
    }
  }

  /** Cuts the text so far into events (each at most maxBatchChars) and queues them for publishing. */
  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending) return;
    for (let at = 0; at < this.pending.length;) {
      let end = Math.min(at + this.maxBatchChars, this.pending.length);
      // Never between the two halves of a surrogate pair (an emoji), so each event's text is valid on its own.
      if (end < this.pending.length && end - at > 1 && /[\uD800-\uDBFF]/.test(this.pending[end - 1]!)) end -= 1;
      const text = this.pending.slice(at, end);
      const event = { step: this.options.step, attempt: this.options.attempt, seq: this.seq++, text };
      // The JSON payload's bytes (text as escaped, the rest of the event, room for the payload's metadata), in base64.
      this.queue.push({ event, chars: Math.ceil(((jsonStringBytes(text) + 128) * 4) / 3) });
      at = end;
    }
    this.pending = '';
    this.lastSentAt = performance.now();
    if (!this.publishing) {
      this.publishing = true;
      this.delivered = this.publishQueued();
    }
  }

  /**
   * Hands the queued events to the stream client a publish at a time, each once the one before was delivered. Never
   * rejects. It stops in the step that finds the queue empty, so an event queued later starts it again.
   */
  private async publishQueued(): Promise<void> {
    const topic = this.stream.topic<TokenEvent>(STREAM_TOPICS.tokens);
    try {
      while (this.queue.length > 0) {
        const batch = this.nextPublish();
        for (const { event } of batch) {
          topic.publish(event);
          this.options.log.debug('Model text batch published', {
            step: event.step,
            attempt: event.attempt,
            seq: event.seq,
            chars: event.text.length,
            sentAt: Date.now(),
          });
        }
        await this.deliver(batch);
        // Text still waiting came faster than the interval: a watcher reads this publish before the next.
        if (this.queue.length > 0) await sleep(this.options.batchIntervalMs);
      }
    } catch (err) {
      this.warn((err as Error).message ?? String(err));
    } finally {
      this.publishing = false;
    }
  }

  /** The oldest queued events one publish takes: at least one, at most the run's count and our size per publish. */
  private nextPublish(): Queued[] {
    let chars = this.queue[0]!.chars;
    let count = 1;
    while (count < this.queue.length && count < MAX_ITEMS_PER_PUBLISH && chars + this.queue[count]!.chars <= MAX_PUBLISH_DATA_CHARS) {
      chars += this.queue[count++]!.chars;
    }
    return this.queue.splice(0, count);
  }

  /**
   * Sends what the stream client holds, again while it fails, until the client gives up on it. Then the run has not
   * been reached for a minute: what waits is dropped with it, and the log says how much, never silently.
   */
  private async deliver(batch: Queued[]): Promise<void> {
    for (;;) {
      try {
        return await this.stream.flush();
      } catch (err) {
        if (!(err instanceof FlushTimeoutError)) {
          await sleep(RETRY_MS);
          continue;
        }
        const dropped = [...batch, ...this.queue.splice(0)];
        const chars = dropped.reduce((sum, { event }) => sum + event.text.length, 0);
        return this.warn(`${chars} characters (events ${dropped[0]!.event.seq} to ${dropped.at(-1)!.event.seq}) dropped: ${err.message}`);
      }
    }
  }

  private warn(problem: string): void {
    this.options.log.warn('Model tokens were not all delivered to the run stream; the model call goes on', {
      problem,
      step: this.options.step,
      attempt: this.options.attempt,
      events: this.seq,
    });
  }
}
