/** Shows a gated call to approvers: what they see, who may decide it, and its deadline counted from now. */
import { argsHash } from '../policy/args-hash.js';
import type { CallRecord, GateSettings } from '../schemas/call-record.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { AgentRun } from './agent-run.js';
import { PATCHES, takesPatch } from './patches.js';
import { runDuration } from './run-duration.js';
import { isoAt, workflowNow } from './workflow-clock.js';

/**
 * What the announcement carries besides the gate's settings: the reviewer's reasoning, the world, why it waits again,
 * whether it is still being prepared.
 */
export type AnnouncementExtras = Pick<PendingApproval, 'review' | 'world' | 'repended' | 'preparing'>;

export function announce(
  run: AgentRun,
  record: CallRecord,
  description: string,
  ownIds: boolean,
  at = workflowNow(),
  extras: AnnouncementExtras = {},
): void {
  const gate = record.gate!;
  const args = record.proposal?.args ?? record.args!;
  // The requester under four eyes, and whoever wrote this call (by an edit, or at a breakpoint): neither approves it.
  const writtenBy = record.proposal
    ? { approver: record.proposal.approver, callId: record.id, toolName: record.toolName }
    : record.writtenBy;
  const excluded = [
    ...(run.policy.fourEyes && run.input.requestedBy ? [run.input.requestedBy] : []),
    ...(writtenBy?.approver ? [writtenBy.approver] : []),
  ];
  const v4 = ownIds && takesPatch(PATCHES.whoDecides);
  const v5 = v4 && takesPatch(PATCHES.typedApprovers);
  const v6 = v5 && takesPatch(PATCHES.fourEyesAnswers);
  const v7 = v6 && takesPatch(PATCHES.namesAnyCase);
  run.book.announce(record, {
    toolName: record.proposal?.toolName ?? record.toolName,
    args,
    argsHash: argsHash(args),
    description,
    allowedDecisions: gate.allowedDecisions,
    requestedAt: isoAt(at),
    deadline: isoAt(at + gate.timeoutMs),
    step: record.step,
    ...(gate.approvers && { approvers: gate.approvers }),
    ...(excluded.length > 0 && { excludedApprovers: excluded }),
    onTimeout: gate.onTimeout,
    rule: record.proposal?.rule ?? record.rule,
    ...(ownIds ? { checks: v7 ? 7 : v6 ? 6 : v5 ? 5 : v4 ? 4 : 3 } : takesPatch(PATCHES.decisionChecksV2) && { checks: 2 }),
    ...(writtenBy && { proposedBy: writtenBy }),
    ...(ownIds && { agent: run.agent }),
    ...(v4 && whoDecides(gate, at)),
    ...extras,
  });
}

/** Quorum, the approver ladder (tiers due before the deadline) and how long an approval holds. */
function whoDecides(gate: GateSettings, at: number): Partial<PendingApproval> {
  const ladder = (gate.escalate ?? []).filter((tier) => tier.afterMs < gate.timeoutMs).sort((a, b) => a.afterMs - b.afterMs);
  return {
    ...(gate.requiredApprovals !== undefined && gate.requiredApprovals > 1 && { requiredApprovals: gate.requiredApprovals }),
    ...(ladder.length > 0 && {
      escalations: ladder.map((tier) => ({ at: isoAt(at + tier.afterMs), approvers: tier.approvers, reached: false })),
    }),
    ...(gate.validForMs !== undefined && { validFor: runDuration(gate.validForMs) }),
  };
}

/** A call now waits for a decision: approvers' webhooks and watchers are told. */
export function requestApproval(run: AgentRun, approval: PendingApproval): void {
  run.notifications.send('approval.requested', approval);
  run.events.approvalRequested(approval);
}
