/**
 * The calls of the open step, in the order the model asked for them, and what the run remembers of calls decided
 * before: enough to answer "already decided" for any call of the run, however long ago, so a refusal never
 * depends on timing. Call ids are ours (`call-<n>`), handed out here.
 */
import { OWN_CALL_ID } from '../contract/call-ids.js';
import type { CallRecord } from '../schemas/call-record.js';
import type { DecidedSummary } from '../schemas/carried-state.js';
import type { CountedApproval, PendingApproval } from '../schemas/pending-approval.js';
import type { ReviewOutcome } from '../schemas/review.js';
import type { PolicyOutcome } from '../schemas/run-state.js';

/** Decided calls remembered in detail (who decided what); older ones are still known to be decided. */
const KEEP_DECIDED = 2000;
/** How the policy classified recent calls, for reviewers. */
const KEEP_OUTCOMES = 500;
/**
 * The classifications continue-as-new hands on: the newest. Older ones stay in the run that made them (runState of
 * a `previousRunIds` run); carried, 140 steps' worth were a quarter of what an evicted run decodes and checks again.
 */
const CARRIED_OUTCOMES = 50;

export class CallBook {
  #calls: CallRecord[] = [];
  #decided = new Map<string, DecidedSummary>();
  #lastCallNumber = 0;
  #outcomes: PolicyOutcome[] = [];

  restore(state: {
    calls: CallRecord[];
    decided: [string, DecidedSummary][];
    lastCallNumber: number;
    policyOutcomes: PolicyOutcome[];
  }): void {
    this.#calls = state.calls;
    this.#decided = new Map(state.decided);
    this.#lastCallNumber = state.lastCallNumber;
    this.#outcomes = state.policyOutcomes;
  }

  /** Why recent calls did or did not wait for a human, newest last. */
  get policyOutcomes(): readonly PolicyOutcome[] {
    return this.#outcomes;
  }

  get calls(): readonly CallRecord[] {
    return this.#calls;
  }

  get lastCallNumber(): number {
    return this.#lastCallNumber;
  }

  nextCallId(): string {
    return `call-${++this.#lastCallNumber}`;
  }

  /** The step's calls, classified; each classification is kept so reviewers see why a call did or did not wait. */
  open(records: CallRecord[]): void {
    this.#calls = records;
    for (const r of records) this.#outcomes.push({ id: r.id, toolName: r.toolName, step: r.step, gated: !!r.gate, rule: r.rule });
    if (this.#outcomes.length > KEEP_OUTCOMES * 2) this.#outcomes = this.#outcomes.slice(-KEEP_OUTCOMES);
  }

  /** Ends the step: its calls, all done, leave the book. */
  close(): CallRecord[] {
    const closed = this.#calls;
    this.#calls = [];
    return closed;
  }

  /** The call is running its tool (or sub-agent): the run does not continue as new meanwhile. */
  markRunning(record: CallRecord): void {
    record.status = 'running';
  }

  markWaiting(record: CallRecord): void {
    record.status = 'waiting';
  }

  /** The call's answer for the model: its tool's result, or what a human or the deadline decided instead. */
  finish(record: CallRecord, result: string): void {
    record.result = result;
    record.status = 'done';
  }

  /**
   * Shows the call to approvers; a second or later announcement gets a new id (`<id>.<n>`), as does one after a
   * decision made before any human saw the call (a reviewer's approval whose consent lapsed).
   */
  announce(record: CallRecord, pending: Omit<PendingApproval, 'id'>): PendingApproval {
    const count = (record.announcements ?? 1) + (record.pending || record.resolution ? 1 : 0);
    if (count > 1) record.announcements = count;
    record.pending = { id: count > 1 ? `${record.id}.${count}` : record.id, ...pending };
    record.resolution = undefined;
    return record.pending;
  }

  resolve(record: CallRecord, resolution: NonNullable<CallRecord['resolution']>): void {
    record.resolution = resolution;
  }

  /** One approval toward the call's quorum; the call still waits for the others. `held`: which earlier ones still count. */
  countApproval(record: CallRecord, approval: CountedApproval, held: (approvals: CountedApproval[]) => CountedApproval[] = (a) => a): void {
    const pending = record.pending!;
    pending.approvals = [...held(pending.approvals ?? []), approval];
  }

  /**
   * The call has waited long enough for tier `tier` of its approver ladder: its approvers may decide it too. In
   * place, so the wait on this announcement goes on.
   */
  escalate(record: CallRecord, tier: number): void {
    const pending = record.pending!;
    const step = pending.escalations![tier]!;
    step.reached = true;
    if (pending.approvers) pending.approvers = [...new Set([...pending.approvers, ...step.approvers])];
  }

  /**
   * What was looked up for a call after it was shown (a proposal): its world, its tool's description. In place: no
   * decision that would run it was taken meanwhile (`preparing`), so nothing decided refers to the call without them.
   */
  lookedUp(record: CallRecord, found: Partial<Pick<PendingApproval, 'world' | 'description'>>): void {
    const pending = record.pending!;
    Object.assign(pending, found);
    delete pending.preparing;
  }

  /** What the reviewer made of the call (it reviews a call once, across continue-as-new too). */
  reviewed(record: CallRecord, outcome: ReviewOutcome): void {
    record.review = outcome;
  }

  /** An approver's edit into another tool, which now waits for that tool's approvers. */
  propose(record: CallRecord, proposal: NonNullable<CallRecord['proposal']>, gate: NonNullable<CallRecord['gate']>): void {
    record.proposal = proposal;
    record.gate = gate;
  }

  /** Drops calls still waiting for a decision (the run is ending); calls already decided stay. */
  abandonWaiting(): void {
    this.#calls = this.#calls.filter((c) => !c.pending || c.resolution);
  }

  /** Calls waiting for a decision now, oldest first. */
  pending(): PendingApproval[] {
    return this.#calls.flatMap((c) => (c.pending && !c.resolution ? [c.pending] : []));
  }

  /** The record whose current announcement has this id. */
  byPendingId(id: string): CallRecord | undefined {
    return this.#calls.find((c) => c.pending?.id === id && !c.resolution);
  }

  markDecided(id: string, summary: DecidedSummary): void {
    this.#decided.set(id, summary);
    if (this.#decided.size > KEEP_DECIDED * 2) this.#decided = new Map([...this.#decided].slice(-KEEP_DECIDED));
  }

  /**
   * What the run knows of a call that is not pending: who decided it, or, for one of our ids beyond what is kept in
   * detail, that it was settled earlier. Undefined: the run never had such a call.
   */
  decidedEarlier(id: string): DecidedSummary | undefined {
    const known = this.#decided.get(id);
    if (known) return known;
    const own = OWN_CALL_ID.exec(id);
    if (!own || Number(own[1]) > this.#lastCallNumber || this.byPendingId(id)) return undefined;
    // `<id>.<n>` of a call still in the book was settled only if the call was announced that often: a decision sent
    // for a proposal's id before the edit that makes it arrived names no call yet.
    if (!own[2]) return { type: 'settled' };
    const record = this.#calls.find((c) => c.id === `call-${own[1]}`);
    const announced = record ? (record.announcements ?? 1) : this.#lastDecidedAnnouncement(own[1]!);
    return announced !== undefined && announced < Number(own[2]) ? undefined : { type: 'settled' };
  }

  /**
   * How often a call no longer in the book was announced, as far as the decided ledger tells: every announcement of
   * a gated call ends decided (by a person, its deadline or an edit that replaced it), and the ledger drops the
   * oldest first, so the highest one it holds was the last. Undefined when it holds none of the call's.
   */
  #lastDecidedAnnouncement(callNumber: string): number | undefined {
    let last: number | undefined;
    for (const id of this.#decided.keys()) {
      const own = OWN_CALL_ID.exec(id);
      if (own?.[1] === callNumber) last = Math.max(last ?? 0, own[2] ? Number(own[2]) : 1);
    }
    return last;
  }

  /** No tool or sub-agent is running and no decided call is about to start one: safe to continue as new. */
  isPausable(): boolean {
    return this.#calls.every((c) => c.status === 'done' || (c.status === 'waiting' && !c.resolution));
  }

  carry(): { calls: CallRecord[]; decided: [string, DecidedSummary][]; lastCallNumber: number; policyOutcomes: PolicyOutcome[] } {
    // A valid call's arguments live on parsed; its raw text is needed only to answer an invalid call.
    const calls = this.#calls.map((c) => (c.args ? { ...c, rawArgs: '' } : c));
    return {
      calls,
      decided: [...this.#decided].slice(-KEEP_DECIDED),
      lastCallNumber: this.#lastCallNumber,
      policyOutcomes: this.#outcomes.slice(-CARRIED_OUTCOMES),
    };
  }

  /** The decided map as the decision planner reads it. */
  get decided(): ReadonlyMap<string, DecidedSummary> {
    return this.#decided;
  }
}
