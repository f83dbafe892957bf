import { jsonStringBytes } from '../bounds/truncate.js';

/**
 * A session run's queue: user messages sent while a turn runs (or while it waits for the next one), whether `end`
 * was asked for, and the idle deadline while it waits.
 */
export class SessionQueue {
  #queued: string[] = [];
  #endRequested = false;
  #idleDeadline: string | undefined;

  restore(state: { queuedMessages: string[]; endRequested: boolean; idleDeadline?: string }): void {
    this.#queued = state.queuedMessages;
    this.#endRequested = state.endRequested;
    this.#idleDeadline = state.idleDeadline;
  }

  get length(): number {
    return this.#queued.length;
  }

  /** Bytes of the queued messages as the payload that carries them holds them (jsonStringBytes). */
  get bytes(): number {
    return this.#queued.reduce((sum, content) => sum + jsonStringBytes(content), 0);
  }

  get endRequested(): boolean {
    return this.#endRequested;
  }

  get idleDeadline(): string | undefined {
    return this.#idleDeadline;
  }

  push(content: string): number {
    return this.#queued.push(content);
  }

  requestEnd(): void {
    this.#endRequested = true;
  }

  /** Starts the idle clock unless it already runs (a resumed run keeps its deadline). */
  startIdle(deadline: string): void {
    this.#idleDeadline ??= deadline;
  }

  /** Everything queued, for the next turn; the idle clock stops. */
  drain(): string[] {
    this.#idleDeadline = undefined;
    return this.#queued.splice(0);
  }

  carry(): { queuedMessages: string[]; endRequested: boolean; idleDeadline?: string } {
    return {
      queuedMessages: this.#queued,
      endRequested: this.#endRequested,
      ...(this.#idleDeadline && { idleDeadline: this.#idleDeadline }),
    };
  }
}
