/**
 * Under a quorum with `validFor`, an approval holds only that long (patch quorumApprovalsLapse): the run counts only
 * those still held, and the views (lists, the inbox, the HTTP API) show only those, so an approver whose approval
 * lapsed is offered the decision again as soon as it lapses, not once the next approval reaches the run.
 */
import { durationToMs } from '../schemas/duration.js';
import type { CountedApproval, PendingApproval } from '../schemas/pending-approval.js';

/** The approvals still held at `now`; all of them when approvals do not lapse. */
export function liveApprovals(approvals: readonly CountedApproval[], validForMs: number | undefined, now: number): CountedApproval[] {
  if (validForMs === undefined) return [...approvals];
  return approvals.filter((a) => Date.parse(a.at) + validForMs > now);
}

/**
 * A pending call as it stands at `now` (the viewer's clock): without the approvals that lapsed since the run last
 * changed it. The run's own listing keeps them until its next change, as it has no clock of its own between tasks.
 * A `validFor` it cannot read (a run's output is checked like any input) leaves the call as it is.
 */
export function heldAsOf(call: PendingApproval, now: number): PendingApproval {
  if (!call.approvals?.length || call.validFor === undefined) return call;
  let validForMs: number;
  try {
    validForMs = durationToMs(call.validFor);
  } catch {
    return call;
  }
  const held = liveApprovals(call.approvals, validForMs, now);
  if (held.length === call.approvals.length) return call;
  const { approvals: _, ...rest } = call;
  return held.length > 0 ? { ...rest, approvals: held } : rest;
}
