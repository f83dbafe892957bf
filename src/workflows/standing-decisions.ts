/**
 * Which `always` decision, if any, settles a call as it comes up: the standing decisions of a run (AgentRun owns
 * them; run-decisions.ts records and applies them).
 */
import { decisionRules, effectOf, mayDecide } from '../policy/may-decide.js';
import type { CallRecord } from '../schemas/call-record.js';
import type { AlwaysDecision } from '../schemas/carried-state.js';
import type { AgentRun } from './agent-run.js';
import { PATCHES, takesPatch } from './patches.js';

/**
 * The `always` decision that settles this call, if any: its tool's, unless it is an approval and the call needs
 * several (one person's standing approval is not a quorum), or the call is one an approver wrote by editing another
 * (`proposedBy`): a standing approval was given for the model's calls, and arguments a person chose wait for a
 * person who may approve them. Nor does it settle a call its giver may not decide (patch
 * standingDecisionsNeedAuthority): authority over one call, gained by its escalation or given by its rule, is not
 * authority over the next, which may have other approvers and has not waited.
 */
export function standingDecision(run: AgentRun, record: CallRecord): AlwaysDecision | undefined {
  // `writtenBy` (at a breakpoint) is there before the call is shown, `proposedBy` only once it is.
  if ((record.pending?.proposedBy || record.writtenBy) && takesPatch(PATCHES.proposalsWaitForPeople)) return undefined;
  const always = run.alwaysFor(record.pending?.toolName ?? record.toolName);
  if (always?.type === 'approve' && (record.gate?.requiredApprovals ?? 1) > 1) return undefined;
  if (always && takesPatch(PATCHES.standingDecisionsNeedAuthority) && !mayStand(run, record, always)) return undefined;
  return always;
}

/** Whether the giver of a standing decision may decide this call as it is: its approvers now, and four eyes. */
function mayStand(run: AgentRun, record: CallRecord, always: AlwaysDecision): boolean {
  const requester = run.policy.fourEyes ? run.input.requestedBy : undefined;
  // A call not yet shown has its gate's approvers, and the exclusions announce.ts gives it.
  const authority = record.pending ?? {
    ...(record.gate?.approvers && { approvers: record.gate.approvers }),
    ...(requester && { excludedApprovers: [requester] }),
  };
  const who = { ...(always.approver && { approver: always.approver }), groups: always.groups ?? [] };
  return mayDecide(authority, who, effectOf(always.type), decisionRules(record.pending?.checks ?? 5)).ok;
}
