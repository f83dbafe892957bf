/**
 * Where one approval stands, waiting or not: what a Spring-style client polls (`GET /api/approvals/{id}/status`).
 * A call that no longer waits is not found by `findApproval`; its run's audit log says what became of it.
 */
import { announcedAgainAs } from '../contract/call-ids.js';
import type { ApprovalStatus } from '../schemas/approval-status.js';
import type { RunState } from '../schemas/run-state.js';

/** What became of `callId` in a run, from the run's state: undefined when the run never had such a call in view. */
export function statusIn(
  state: Pick<RunState, 'pending' | 'decisions' | 'status'>,
  workflowId: string,
  callId: string,
): ApprovalStatus | undefined {
  const base = { workflowId, callId };
  if (state.pending.some((p) => p.id === callId)) return { ...base, status: 'waiting' };
  const entries = state.decisions.filter((e) => e.id === callId && e.outcome !== 'refused');
  const again =
    entries.find((e) => e.proposedAs)?.proposedAs ??
    announcedAgainAs(
      callId,
      state.pending.map((p) => p.id),
    );
  if (again) return { ...base, status: 'waits_again', waitsAs: again };
  const settled = entries.filter((e) => e.outcome === 'applied' && !(e.quorum && e.quorum.approvals < e.quorum.required)).at(-1);
  if (settled) return { ...base, status: settled.via === 'timeout' ? 'timed_out' : 'decided', decision: settled };
  return entries.length > 0 ? { ...base, status: 'unsettled' } : undefined;
}
