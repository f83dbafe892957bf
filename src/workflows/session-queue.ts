import { jsonStringBytes } from '../bounds/truncate.js';

/** What a session's queue carries across continue-as-new. */
export type SessionCarry = { queuedMessages: string[]; endRequested: boolean; endReason?: string; idleDeadline?: string };

/**
 * A session run's queue: user messages sent while a turn runs (or while it waits for the next one), whether `end`
 * was asked for, and the idle deadline while it waits.
 */
export class SessionQueue {
  #queued: string[] = [];
  #endRequested = false;
  /** The reason the `end` request gave, if any. */
  #endReason: string | undefined;
  #idleDeadline: string | undefined;

  restore(state: SessionCarry): void {
    this.#queued = state.queuedMessages;
    this.#endRequested = state.endRequested;
    this.#endReason = state.endReason;
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

  /** Only once: a second `end` is refused as the session is closed (src/workflows/session.ts). */
  requestEnd(reason?: string): void {
    this.#endRequested = true;
    this.#endReason = reason;
  }

  get endReason(): string | undefined {
    return this.#endReason;
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

  carry(): SessionCarry {
    return {
      queuedMessages: this.#queued,
      endRequested: this.#endRequested,
      ...(this.#endReason !== undefined && { endReason: this.#endReason }),
      ...(this.#idleDeadline && { idleDeadline: this.#idleDeadline }),
    };
  }
}
