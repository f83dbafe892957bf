/**
 * Under a quorum with `validFor`, an approval holds only that long (patch quorumApprovalsLapse): the run counts only
 * those still held, and the views (lists, the inbox, the HTTP API, `hitl show`) show only those, so an approver whose
 * approval lapsed is offered the decision again as soon as it lapses, not once the run next changes.
 */
import type { CountedApproval, PendingApproval } from '../schemas/pending-approval.js';

/** The approvals still held at `now`; all of them when approvals do not lapse. */
export function liveApprovals(approvals: readonly CountedApproval[], validForMs: number | undefined, now: number): CountedApproval[] {
  if (validForMs === undefined) return [...approvals];
  return approvals.filter((a) => Date.parse(a.at) + validForMs > now);
}

/**
 * A pending call as it stands at `now` (the viewer's clock): without the approvals whose `until` has passed since the
 * run last changed it. The run's own listing keeps them until its next change, as it has no clock between tasks.
 * Approvals counted before patch set 21 say no `until` (their `validFor` was written rounded): they stay as listed.
 */
export function heldAsOf(call: PendingApproval, now: number): PendingApproval {
  if (!call.approvals?.some((a) => a.until !== undefined)) return call;
  const held = call.approvals.filter((a) => a.until === undefined || Date.parse(a.until) > now);
  if (held.length === call.approvals.length) return call;
  const { approvals: _, ...rest } = call;
  return held.length > 0 ? { ...rest, approvals: held } : rest;
}
