/**
 * What this run's sub-agents wait for, as they last reported it, so their calls show in this run's pending views
 * and can be decided here. A decision passed on to a sub-agent hides its call until the sub-agent reports again
 * (taken: gone; refused: back). In runs with our own call ids, a sub-agent's call is shown as
 * `<this run's call id>/<its id>`, unique here even when the sub-agent's ids repeat ours.
 */
import type { DecidedSummary } from '../schemas/carried-state.js';
import type { DecisionType } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { ChildAnswer, ChildApprovals } from './sub-agent-report.js';

/** A decision passed on to the sub-agent that owns the call, waiting to hear what it did with it. */
export interface Forwarded {
  /** The call's id as shown in this run. */
  shownId: string;
  /** The run that owns the call. */
  owner: string;
  toolName: string;
  type: DecisionType;
  /** Who decided, as this run took it. */
  approver?: string;
  /** The approver the input passed on named, as the owner records it if it refuses the input or passes it on. */
  sentAs?: string;
}

/** What became of a decision passed on: taken, refused (with the owner's reason), or never answered (`lost`). */
type Verdict = { kind: 'taken' } | { kind: 'refused'; refusal: NonNullable<ChildAnswer['refusal']> } | { kind: 'lost'; reason: string };
export type ForwardVerdict = Forwarded & Verdict;
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
  /**
   * Decisions passed on whose fate the run notes (patch forwardsHearBack), by the same key as `#forwarded`. Kept
   * apart from it: a call that is no longer pending is no longer hidden, but the owner has still to answer.
   */
  readonly #unanswered = new Map<string, Forwarded>();
  /** Per sub-agent (patch reportsConfirmed): the number of the last report confirmed and taken. */
  readonly #confirmedSeq = new Map<string, number>();
  /** Per sub-agent: the check of its reports that runs last, so checks run one at a time, in the order they came. */
  readonly #checks = new Map<string, Promise<void>>();

  /** Sub-agent calls of `workflowId` are shown as `<callId>/<their id>`. */
  name(workflowId: string, callId: string): void {
    this.#prefixes.set(workflowId, callId);
  }

  /** This run starts the sub-agent `workflowId`. */
  started(workflowId: string): void {
    this.#running.add(workflowId);
  }

  /**
   * The sub-agent `workflowId` has ended: what it reported waits no more, and a late report is not taken. Returns the
   * decisions passed on within its tree that it never answered.
   */
  ended(workflowId: string): ForwardVerdict[] {
    this.#running.delete(workflowId);
    this.#reports.delete(workflowId);
    return this.#settle(
      (key) => key.startsWith(`${workflowId}/`),
      () => ({ kind: 'lost', reason: `sub-agent ${workflowId} ended before it said what it did with the decision` }),
    );
  }

  /** Whether a report names a sub-agent this run started and still waits for. */
  isRunning(workflowId: string): boolean {
    return this.#running.has(workflowId);
  }

  /** Runs `check` once every earlier check of `workflowId`'s reports has settled; returns when it has. */
  queueCheck(workflowId: string, check: () => Promise<void>): Promise<void> {
    const next = (this.#checks.get(workflowId) ?? Promise.resolve()).then(check);
    this.#checks.set(workflowId, next);
    return next;
  }

  /** Whether a report of `workflowId` numbered `seq` is no newer than one already confirmed and taken. */
  confirmedSince(workflowId: string, seq: number): boolean {
    return (this.#confirmedSeq.get(workflowId) ?? -1) >= seq;
  }

  /** The sub-agent confirmed it sent report `seq`, and it is taken next. */
  noteConfirmed(workflowId: string, seq: number): void {
    this.#confirmedSeq.set(workflowId, seq);
  }

  /**
   * Takes a sub-agent's report, unless an older one arrives late. Returns whether anything changed, and what became
   * of decisions passed on that it answers.
   */
  take(report: ChildApprovals): { changed: boolean; verdicts: ForwardVerdict[] } {
    const { workflowId, seq, pending, tools, answered = [], answers = [], tokensChecked = [] } = report;
    const known = this.#reports.get(workflowId);
    if (known && known.seq >= seq) return { changed: false, verdicts: [] };
    const stillPending = new Set(pending.map((p) => p.id));
    const within = (key: string) => key.startsWith(`${workflowId}/`);
    const reportedId = (key: string) => key.slice(workflowId.length + 1);
    for (const key of [...this.#forwarded.keys()].filter(within)) {
      const id = reportedId(key);
      if (answered.includes(id) || !stillPending.has(id)) this.#forwarded.delete(key);
    }
    // Its answer to this decision: for the same call, in the name of the approver it came from or who decided it. A
    // report sent before the decision reached it may answer another's decision for the call: that one waits on.
    const answerTo = (key: string, { sentAs, approver }: Forwarded) =>
      answers.filter((a) => a.id === reportedId(key) && (a.approver === sentAs || a.approver === approver)).at(-1);
    const verdicts = this.#settle(
      (key, forwarded) => within(key) && answerTo(key, forwarded) !== undefined,
      (key, forwarded) => {
        const answer = answerTo(key, forwarded)!;
        return answer.refusal ? { kind: 'refused', refusal: answer.refusal } : { kind: 'taken' };
      },
    );
    if (pending.length) this.#reports.set(workflowId, { seq, pending, tools, tokensChecked });
    else this.#reports.delete(workflowId);
    return { changed: true, verdicts };
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

  /**
   * Notes a decision passed on to the owner of a sub-agent's call (shown here as `shownId`); `awaited`, to hear back
   * what the owner did with it (patch forwardsHearBack).
   */
  forward(forwarded: Forwarded, awaited: boolean): void {
    const key = `${forwarded.owner}/${ownerCallId(forwarded.shownId)}`;
    this.#forwarded.set(key, { type: forwarded.type, ...(forwarded.approver && { approver: forwarded.approver }) });
    if (awaited) this.#unanswered.set(key, forwarded);
  }

  /** The decision passed on for `shownId` could not be delivered to `owner`: it will never be answered. */
  undelivered(owner: string, shownId: string, reason: string): ForwardVerdict[] {
    const key = `${owner}/${ownerCallId(shownId)}`;
    return this.#settle(
      (k) => k === key,
      () => ({ kind: 'lost', reason }),
    );
  }

  #settle(
    matches: (key: string, forwarded: Forwarded) => boolean,
    verdict: (key: string, forwarded: Forwarded) => Verdict,
  ): ForwardVerdict[] {
    const settled = [...this.#unanswered].filter(([key, forwarded]) => matches(key, forwarded));
    for (const [key] of settled) this.#unanswered.delete(key);
    return settled.map(([key, forwarded]) => ({ ...forwarded, ...verdict(key, forwarded) }));
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
