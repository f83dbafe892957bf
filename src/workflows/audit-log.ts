/**
 * Every decision a run received, applied or refused, numbered from the run's first. A long session keeps the last
 * 1,000 in memory (and carries them across continue-as-new); older ones stay in the earlier runs' histories.
 */
import { truncateBytes, utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import { workflowIsoNow } from './workflow-clock.js';

export const KEEP_AUDIT = 1000;

export class AuditLog {
  #entries: AuditEntry[];
  #dropped: number;

  constructor(entries: AuditEntry[] = [], dropped = 0) {
    this.#entries = entries;
    this.#dropped = dropped;
  }

  restore(entries: AuditEntry[], dropped: number): void {
    this.#entries = entries;
    this.#dropped = dropped;
  }

  get entries(): readonly AuditEntry[] {
    return this.#entries;
  }

  /** Entries left behind in memory or in earlier runs. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The `seq` of the newest entry (0 when none). */
  get lastSeq(): number {
    return this.#dropped + this.#entries.length;
  }

  append(entry: Omit<AuditEntry, 'seq' | 'at'>): AuditEntry {
    const full: AuditEntry = { seq: this.lastSeq + 1, at: workflowIsoNow(), ...entry };
    this.#entries.push(full);
    if (this.#entries.length > KEEP_AUDIT * 2) {
      this.#dropped += this.#entries.length - KEEP_AUDIT;
      this.#entries = this.#entries.slice(-KEEP_AUDIT);
    }
    return full;
  }

  since(seq: number): AuditEntry[] {
    return this.#entries.filter((e) => e.seq > seq);
  }

  /**
   * What continue-as-new carries within its budget, and how many entries it leaves behind (`lastSeq` stays right):
   * the newest entries, or with `decidedFirst` (patch auditKeepsDecided) the newest of what was decided (applied
   * decisions, timeouts, reviews) first and the newest refusals with what budget is left. A refusal records
   * whatever input came, and anyone who can signal the run can send many: without it, a flood of refused input
   * pushed applied decisions out of every view of the run's next runs.
   */
  carry(decidedFirst = false): { audit: AuditEntry[]; auditDropped: number } {
    const newestFirst = [...this.#entries].reverse();
    const order = decidedFirst
      ? [...newestFirst.filter((e) => e.outcome !== 'refused'), ...newestFirst.filter((e) => e.outcome === 'refused')]
      : newestFirst;
    const kept = new Set<AuditEntry>();
    let bytes = 0;
    for (const entry of order) {
      if (kept.size >= KEEP_AUDIT) break;
      bytes += utf8Length(JSON.stringify(entry));
      if (bytes > LIMITS.carriedAuditBytes) {
        if (!decidedFirst) break;
        // Past the budget: what is decided is not shed for a refusal; refusals fill what is left, newest first.
        bytes -= utf8Length(JSON.stringify(entry));
        if (entry.outcome === 'refused') break;
        continue;
      }
      kept.add(entry);
    }
    const audit = this.#entries.filter((e) => kept.has(e));
    return { audit, auditDropped: this.lastSeq - audit.length };
  }
}

/** Arguments as an audit entry keeps them: whole when small, else a preview (the history has them whole). */
export function auditArgs(args: ToolArgs | undefined): ToolArgs | undefined {
  if (args === undefined) return undefined;
  const text = JSON.stringify(args);
  return utf8Length(text) <= LIMITS.auditArgumentsBytes ? args : { preview: truncateBytes(text, LIMITS.auditArgumentsBytes) };
}
