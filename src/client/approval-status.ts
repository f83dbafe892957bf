/**
 * Where one approval stands, waiting or not: what a Spring-style client polls (`GET /api/approvals/{id}/status`).
 * A call that no longer waits is not found by `findApproval`; its run's audit log says what became of it.
 */
import { announcedAgainAs, OWN_CALL_ID } from '../contract/call-ids.js';
import { isClosed } from '../contract/run-status.js';
import { ownerOfShownCall } from '../contract/sub-agent-ids.js';
import type { ApprovalStatus } from '../schemas/approval-status.js';
import type { RunState } from '../schemas/run-state.js';

type StatusState = Pick<RunState, 'pending' | 'decisions' | 'status'> & Partial<Pick<RunState, 'policyOutcomes'>>;

/** A call announced again is followed this far: each announcement after the first needs a decision of its own. */
const MAX_ANNOUNCEMENTS = 100;

/**
 * What became of `callId`, shown by the run `workflowId`. A sub-agent's call (shown `<its path>/<its id>`) is answered
 * by the run that owns it, unless it waits here: that run checked and applied, or refused, whatever decision reached
 * it, while the run that showed it passed decisions on and learns only that the call no longer waits.
 */
export async function approvalStatusOf(
  readRun: (workflowId: string) => Promise<StatusState>,
  workflowId: string,
  callId: string,
): Promise<ApprovalStatus | undefined> {
  const here = statusIn(await readRun(workflowId), workflowId, callId);
  const owner = ownerOfShownCall(workflowId, callId);
  if (!owner || here?.status === 'waiting') return here;
  const there = await readRun(owner.workflowId).then(
    (state) => statusIn(state, owner.workflowId, owner.callId),
    () => undefined,
  );
  if (!there) return here;
  const shownAgain = there.waitsAs && { waitsAs: `${callId.slice(0, callId.length - owner.callId.length)}${there.waitsAs}` };
  return { ...there, workflowId, callId, ...shownAgain };
}

/** What became of `callId` in a run, from the run's state: undefined when the run never had such a call in view. */
export function statusIn(state: StatusState, workflowId: string, callId: string): ApprovalStatus | undefined {
  let own = ownStatus(state, callId);
  // Announced again: what became of the later announcement is what became of this one.
  for (let followed = 0; own?.status === 'waits_again' && followed < MAX_ANNOUNCEMENTS; followed++) {
    const later = ownStatus(state, own.waitsAs!);
    if (!later || later.status === 'waiting') break;
    own = later;
  }
  return own && { workflowId, callId, ...own };
}

function ownStatus(state: StatusState, callId: string): Omit<ApprovalStatus, 'workflowId' | 'callId'> | undefined {
  if (state.pending.some((p) => p.id === callId)) return { status: 'waiting' };
  const entries = state.decisions.filter((e) => e.id === callId && e.outcome !== 'refused');
  // The run's own word first; else a later announcement of the same call that waits (an audit log cut short).
  const again =
    entries.find((e) => e.proposedAs)?.proposedAs ??
    announcedAgainAs(
      callId,
      state.pending.map((p) => p.id),
    );
  if (again) return { status: 'waits_again', waitsAs: again };
  const settled = entries.filter((e) => e.outcome === 'applied' && !(e.quorum && e.quorum.approvals < e.quorum.required)).at(-1);
  if (settled) return { status: settled.via === 'timeout' ? 'timed_out' : 'decided', decision: settled };
  if (entries.length > 0 || (isClosed(state.status) && wasGated(state, callId))) return { status: 'unsettled' };
  return undefined;
}

/** The run classified the call (or the call it announces again) as one that waits for people. */
function wasGated(state: StatusState, callId: string): boolean {
  const first = OWN_CALL_ID.exec(callId)?.[1];
  const ids = new Set([callId, ...(first === undefined ? [] : [`call-${first}`])]);
  return (state.policyOutcomes ?? []).some((o) => o.gated && ids.has(o.id));
}
