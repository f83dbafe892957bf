/**
 * One subscription per run, however many HTTP watchers it has. Each poll of a run's stream costs it history
 * (about four events per answer) and a run lets only a few polls wait at once (`StreamBusy`), so the API polls
 * each watched run once and hands every item to each of its watchers. A watcher that joins late, or resumes
 * with `Last-Event-ID`, first reads what it missed by query (which costs no history), then takes the shared items
 * from where that read ended: nothing is missed and nothing is sent twice.
 */
import type { Client } from '@temporalio/client';
import type { PollResult } from '@temporalio/workflow-streams/workflow';
import { itemConverter, readItems, streamEnd, subscribeRun } from '../client/run-subscription.js';
import { refusePastEnd } from '../client/ended-run.js';
import { StreamOffsetError } from '../client/run-errors.js';
import { WatcherTooSlowError } from '../errors.js';
import type { RunStreamItem } from '../schemas/run-event.js';

/** Items a watcher may have waiting (a reader that does not read); past it, it is dropped and should resume. */
const MAX_QUEUED = 10_000;

/** One watcher's items from the shared subscription, queued until it reads them. */
class Watcher {
  constructor(readonly workflowId: string) {}

  #queue: RunStreamItem[] = [];
  #wake?: () => void;
  #ended = false;
  #error?: unknown;

  push(item: RunStreamItem): void {
    if (this.#queue.length >= MAX_QUEUED) return this.end(new WatcherTooSlowError(this.workflowId));
    this.#queue.push(item);
    this.#wake?.();
  }

  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#wake?.();
  }

  /** Queued and later items until the subscription ends (throwing its error) or `signal` aborts. */
  async *items(signal: AbortSignal): AsyncGenerator<RunStreamItem> {
    const onAbort = () => this.#wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        if (this.#queue.length > 0) {
          yield this.#queue.shift()!;
          continue;
        }
        if (this.#ended) {
          if (this.#error) throw this.#error;
          return;
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** The shared subscription of one run, from the stream's end when the first watcher came. */
class SharedRun {
  readonly #watchers = new Set<Watcher>();
  readonly #abort = new AbortController();
  #ended = false;
  #error?: unknown;

  constructor(client: Client, workflowId: string, fromOffset: number, onDone: () => void) {
    void (async () => {
      try {
        for await (const item of subscribeRun(client, workflowId, { fromOffset, signal: this.#abort.signal })) {
          for (const watcher of this.#watchers) watcher.push(item);
        }
      } catch (err) {
        this.#error = err;
      } finally {
        this.#ended = true;
        onDone();
        for (const watcher of this.#watchers) watcher.end(this.#error);
      }
    })();
  }

  /** False when the subscription is being stopped (its last watcher left): join a new one. */
  add(watcher: Watcher): boolean {
    if (this.#abort.signal.aborted) return false;
    this.#watchers.add(watcher);
    if (this.#ended) watcher.end(this.#error);
    return true;
  }

  /** The last watcher to leave stops the subscription. */
  leave(watcher: Watcher): void {
    this.#watchers.delete(watcher);
    if (this.#watchers.size === 0) this.#abort.abort();
  }
}

export class RunStreamHub {
  readonly #runs = new Map<string, Promise<SharedRun>>();

  constructor(private readonly client: Client) {}

  /**
   * A run's items from `fromOffset` on, until the run closes (or `signal` aborts). Throws RunNotFoundError,
   * NotAnAgentRunError, RunStuckError and StreamOffsetError from the first read.
   */
  async *follow(workflowId: string, fromOffset: number, signal: AbortSignal): AsyncGenerator<RunStreamItem> {
    const watcher = new Watcher(workflowId);
    // Joined before catching up: whatever the shared subscription gets from now on is queued for this watcher.
    const shared = await this.join(workflowId, watcher);
    try {
      let next = fromOffset;
      const convert = itemConverter(this.client);
      for (let more = true; more && !signal.aborted;) {
        let read: PollResult;
        try {
          read = await readItems(this.client, workflowId, next);
        } catch (err) {
          if (!(err instanceof StreamOffsetError)) throw err;
          // Just after the end told of a run Temporal ended (the shared subscription tells it): nothing to catch up.
          await refusePastEnd(this.client, workflowId, err.offset, err.end);
          break;
        }
        yield* convert(read.items);
        next = read.next_offset;
        more = read.more_ready;
      }
      for await (const item of watcher.items(signal)) {
        if (item.offset < next) continue;
        yield item;
        next = item.offset + 1;
      }
    } finally {
      shared.leave(watcher);
    }
  }

  private async join(workflowId: string, watcher: Watcher): Promise<SharedRun> {
    for (;;) {
      let pending = this.#runs.get(workflowId);
      if (!pending) {
        const started: Promise<SharedRun> = streamEnd(this.client, workflowId).then(
          (end) => new SharedRun(this.client, workflowId, end, () => this.forget(workflowId, started)),
        );
        pending = started;
        this.#runs.set(workflowId, pending);
        pending.catch(() => this.forget(workflowId, started));
      }
      const shared = await pending;
      if (shared.add(watcher)) return shared;
      this.forget(workflowId, pending);
    }
  }

  private forget(workflowId: string, run: Promise<SharedRun>): void {
    if (this.#runs.get(workflowId) === run) this.#runs.delete(workflowId);
  }
}
