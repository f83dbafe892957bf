/**
 * Publishes a streaming model call's text to its run's Workflow Stream (`tokens` topic) in batches. Each publish
 * reaches the workflow as a signal, which costs history, so deltas are coalesced: one event per batch interval,
 * or sooner when a batch reaches its size. Watching is best effort: a failed publish is logged and never fails
 * the model call.
 */
import { Context } from '@temporalio/activity';
import type { Logger } from '@temporalio/common';
import { WorkflowStreamClient } from '@temporalio/workflow-streams/client';
import { STREAM_TOPICS } from '../schemas/stream-wire.js';
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

export class TokenPublisher {
  private pending = '';
  private seq = 0;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private readonly maxBatchChars: number;

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

  /** Sends what is left and waits (up to closeTimeoutMs) for delivery. Never throws. */
  async close(): Promise<void> {
    this.send();
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed out'>((resolve) => {
      timeout = setTimeout(() => resolve('timed out'), this.options.closeTimeoutMs);
    });
    try {
      const outcome = await Promise.race([this.stream[Symbol.asyncDispose](), timedOut]);
      if (outcome === 'timed out') this.warn(`not delivered within ${this.options.closeTimeoutMs} ms`);
    } catch (err) {
      this.warn((err as Error).message ?? String(err));
    } finally {
      clearTimeout(timeout);
    }
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending) return;
    const topic = this.stream.topic<TokenEvent>(STREAM_TOPICS.tokens);
    for (let at = 0; at < this.pending.length;) {
      let end = Math.min(at + this.maxBatchChars, this.pending.length);
      // Never between the two halves of a surrogate pair (an emoji), so each event's text is valid on its own.
      if (end < this.pending.length && end - at > 1 && /[\uD800-\uDBFF]/.test(this.pending[end - 1]!)) end -= 1;
      const text = this.pending.slice(at, end);
      const event = { step: this.options.step, attempt: this.options.attempt, seq: this.seq++, text };
      topic.publish(event, { forceFlush: true });
      this.options.log.debug('Model text batch published', {
        step: event.step,
        attempt: event.attempt,
        seq: event.seq,
        chars: text.length,
        sentAt: Date.now(),
      });
      at = end;
    }
    this.pending = '';
    this.lastSentAt = performance.now();
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
