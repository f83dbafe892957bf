/**
 * The run's memory of its model calls: which model each used (the selector's choice), what the beforeModel hook
 * sent, and what the afterModel hook or a human at a breakpoint did with the reply. The latest 100 are kept (and
 * carried across continue-as-new); `runState` shows them.
 */
import type { ModelCallEntry, ModelCallsCarry } from '../schemas/model-call.js';

const KEEP = 100;

export class ModelCallLog {
  #entries: ModelCallEntry[] = [];
  #retries = 0;

  restore(carry: ModelCallsCarry): void {
    this.#entries = [...carry.entries];
    this.#retries = carry.retries;
  }

  carry(): ModelCallsCarry {
    return { entries: this.#entries.slice(-KEEP), retries: this.#retries };
  }

  get entries(): readonly ModelCallEntry[] {
    return this.#entries;
  }

  /** The latest call, for views. */
  get latest(): ModelCallEntry | undefined {
    return this.#entries.at(-1);
  }

  /** Replies sent back for a retry in a row. */
  get retries(): number {
    return this.#retries;
  }

  start(entry: ModelCallEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > KEEP * 2) this.#entries = this.#entries.slice(-KEEP);
  }

  /** What became of the latest call's reply; a retry counts towards the next call's `retries`, anything else resets it. */
  judge(verdict: NonNullable<ModelCallEntry['verdict']>): void {
    const latest = this.#entries.at(-1);
    if (latest) latest.verdict = verdict;
    this.#retries = verdict.action === 'retry' || verdict.action === 'reject' ? this.#retries + 1 : 0;
  }

  /** The reply was taken (as it came, or edited): the next reply starts a fresh count. */
  accepted(): void {
    this.#retries = 0;
  }

  /** The beforeModel hook's view of the latest call. */
  sent(messages: number, of: number): void {
    const latest = this.#entries.at(-1);
    if (latest) latest.sent = { messages, of };
  }
}
