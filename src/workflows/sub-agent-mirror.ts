/**
 * What this run's sub-agents wait for, as they last reported it, so their calls show in this run's pending views
 * and can be decided here. A decision passed on to a sub-agent hides its call until the sub-agent reports again
 * (taken: gone; refused: back). In runs with our own call ids, a sub-agent's call is shown as
 * `<this run's call id>/<its id>`, unique here even when the sub-agent's ids repeat ours.
 */
import type { DecidedSummary } from '../schemas/carried-state.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { ChildApprovals } from './sub-agent-report.js';

interface ChildReport {
  seq: number;
  pending: PendingApproval[];
  tools: string[];
  /** Its calls whose run checks decision tokens (sub-agent-report.ts). */
  tokensChecked: readonly string[];
}

export class SubAgentMirror {
  readonly #reports = new Map<string, ChildReport>();
  /** `<owner workflow id>/<owner's call id>` → the decision passed on, until the owner reports on it. */
  readonly #forwarded = new Map<string, DecidedSummary>();
  /** Sub-agent workflow id → the id of this run's call that started it (runs with our own call ids). */
  readonly #prefixes = new Map<string, string>();
  /** Sub-agents this run started and still waits for: the only ones whose reports it takes. */
  readonly #running = new Set<string>();

  /** Sub-agent calls of `workflowId` are shown as `<callId>/<their id>`. */
  name(workflowId: string, callId: string): void {
    this.#prefixes.set(workflowId, callId);
  }

  /** This run starts the sub-agent `workflowId`. */
  started(workflowId: string): void {
    this.#running.add(workflowId);
  }

  /** The sub-agent `workflowId` has ended: what it reported waits no more, and a late report is not taken. */
  ended(workflowId: string): void {
    this.#running.delete(workflowId);
    this.#reports.delete(workflowId);
  }

  /** Whether a report names a sub-agent this run started and still waits for. */
  isRunning(workflowId: string): boolean {
    return this.#running.has(workflowId);
  }

  /** Takes a sub-agent's report, unless an older one arrives late. Returns whether anything changed. */
  take(report: ChildApprovals): boolean {
    const { workflowId, seq, pending, tools, answered = [], tokensChecked = [] } = report;
    const known = this.#reports.get(workflowId);
    if (known && known.seq >= seq) return false;
    const stillPending = new Set(pending.map((p) => p.id));
    for (const key of [...this.#forwarded.keys()].filter((k) => k.startsWith(`${workflowId}/`))) {
      const id = key.slice(workflowId.length + 1);
      if (answered.includes(id) || !stillPending.has(id)) this.#forwarded.delete(key);
    }
    if (pending.length) this.#reports.set(workflowId, { seq, pending, tools, tokensChecked });
    else this.#reports.delete(workflowId);
    return true;
  }

  /** Sub-agents' calls still waiting here, marked with the workflow id that owns each. */
  pending(): PendingApproval[] {
    return [...this.#reports].flatMap(([workflowId, { pending }]) => {
      const prefix = this.#prefixes.get(workflowId);
      return pending.flatMap((p) => {
        const owner = p.subAgentWorkflowId ?? workflowId;
        if (this.#forwarded.has(`${owner}/${ownerCallId(p.id)}`)) return [];
        return [{ ...p, ...(prefix && { id: `${prefix}/${p.id}` }), subAgentWorkflowId: owner }];
      });
    });
  }

  /** Notes a decision passed on to the owner of a sub-agent's call (shown here as `shownId`). */
  forward(owner: string, shownId: string, summary: DecidedSummary): void {
    this.#forwarded.set(`${owner}/${ownerCallId(shownId)}`, summary);
  }

  /** Decisions passed on and not yet answered, by the call id as shown here. */
  forwardedByShownId(): Map<string, DecidedSummary> {
    return new Map([...this.#forwarded].map(([key, summary]) => [key.slice(key.lastIndexOf('/') + 1), summary]));
  }

  /** Sub-agents' calls, as shown here, whose run checks decision tokens. */
  tokensChecked(): Set<string> {
    return new Set(
      [...this.#reports].flatMap(([workflowId, { tokensChecked }]) => {
        const prefix = this.#prefixes.get(workflowId);
        return tokensChecked.map((id) => (prefix ? `${prefix}/${id}` : id));
      }),
    );
  }

  /** Tools of each sub-agent run, for edits of its calls. */
  tools(): Map<string, readonly string[]> {
    return new Map([...this.#reports].map(([workflowId, { tools }]) => [workflowId, tools]));
  }

  clear(): void {
    this.#reports.clear();
  }
}

/** The id a call has in the run that owns it: the last segment of a shown id. Our ids never contain `/`. */
export function ownerCallId(shownId: string): string {
  return shownId.slice(shownId.lastIndexOf('/') + 1);
}
