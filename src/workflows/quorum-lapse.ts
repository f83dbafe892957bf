/**
 * Under a quorum, each approval holds for the gate's `validFor`, as a single approval does (patch
 * quorumApprovalsLapse): one given longer ago than that no longer counts, and its approver may approve again. Before,
 * a first approval counted however old it was, and the window for the tool to start began at the last one, so a
 * call could run on consent long lapsed. Pure but for the run's book, which it only reads.
 */
import { liveApprovals } from '../policy/held-approvals.js';
import type { CountedApproval, PendingApproval } from '../schemas/pending-approval.js';
import type { AgentRun } from './agent-run.js';

/** The run's pending calls as the planner judges them at `now`: approvals that lapsed are not counted. */
export function withLiveApprovals(run: AgentRun, pending: readonly PendingApproval[], now: number): PendingApproval[] {
  return pending.map((call) => {
    const validForMs = call.approvals?.length ? run.book.byPendingId(call.id)?.gate?.validForMs : undefined;
    if (validForMs === undefined) return call;
    const live = liveApprovals(call.approvals!, validForMs, now);
    if (live.length === call.approvals!.length) return call;
    const { approvals: _, ...rest } = call;
    return live.length > 0 ? { ...rest, approvals: live } : rest;
  });
}

/** When the oldest approval still held was given: the consent window of a completed quorum starts there. */
export function oldestLiveApproval(approvals: readonly CountedApproval[], validForMs: number | undefined, now: number): number {
  return Math.min(now, ...liveApprovals(approvals, validForMs, now).map((a) => Date.parse(a.at)));
}
