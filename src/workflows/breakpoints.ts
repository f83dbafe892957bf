/**
 * The breakpoint a run is paused at, if any: a pending item like a gated call (a CallRecord, id `break-<n>`), so
 * the one decision planner decides it, every pending view shows it, and the gate's timer and reminders apply. The
 * loop pauses at one point at a time, so there is at most one.
 */
import { breakpointToolName, type BreakpointKind } from '../schemas/agent-options.js';
import type { CallRecord, GateSettings } from '../schemas/call-record.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { ToolArgs } from '../schemas/tool-args.js';

export class Breakpoints {
  #current?: CallRecord;
  #kind?: BreakpointKind;
  #lastNumber = 0;

  restore(lastNumber: number): void {
    this.#lastNumber = lastNumber;
  }

  get lastNumber(): number {
    return this.#lastNumber;
  }

  /** A new breakpoint; the caller announces it (src/workflows/announce.ts) and waits for its decision. */
  open(kind: BreakpointKind, step: number, args: ToolArgs, gate: GateSettings): CallRecord {
    this.#current = {
      id: `break-${++this.#lastNumber}`,
      toolName: breakpointToolName(kind),
      rawArgs: '',
      step,
      args,
      rule: `interrupt.${kind}`,
      gate,
      status: 'waiting',
    };
    this.#kind = kind;
    return this.#current;
  }

  /** The announcement says what it is, for clients that tell breakpoints from calls. */
  mark(record: CallRecord): void {
    if (record === this.#current && record.pending && this.#kind) record.pending = { ...record.pending, breakpoint: this.#kind };
  }

  close(): void {
    this.#current = undefined;
    this.#kind = undefined;
  }

  pending(): PendingApproval[] {
    const current = this.#current;
    return current?.pending && !current.resolution ? [current.pending] : [];
  }

  byPendingId(id: string): CallRecord | undefined {
    const current = this.#current;
    return current?.pending?.id === id && !current.resolution ? current : undefined;
  }
}
