/**
 * Quorum, for the decision planner (decision rules v4): a call may need `requiredApprovals` distinct approvers.
 * Each approval is counted once, by the identity that decided (a verified token's, when tokens are in play); one
 * reject or response settles the call whatever was counted; an `always approve` would let one person approve every
 * later call of the tool, so a call needing several approvals refuses it. Pure.
 */
import { DecisionRefusedError } from '../errors.js';
import type { Decision } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';

export interface QuorumCount {
  /** Approvals counted once this one is (it completes the quorum when equal to `required`). */
  approvals: number;
  required: number;
}

/** Approvals the call needs under the rules it is judged by. */
export function requiredApprovals(call: Pick<PendingApproval, 'checks' | 'requiredApprovals'>): number {
  return (call.checks ?? 1) >= 4 ? (call.requiredApprovals ?? 1) : 1;
}

/** What an approval counts for, or why it cannot count; undefined when the call needs one approval only. */
export function countApproval(
  decision: Decision,
  call: PendingApproval,
  approver: string | undefined,
  label: string,
): QuorumCount | DecisionRefusedError | undefined {
  const required = requiredApprovals(call);
  if (required <= 1 || decision.type !== 'approve') return undefined;
  if (decision.always) {
    return new DecisionRefusedError(
      'decision_not_allowed',
      `${label} needs ${required} approvals, so it cannot be approved "always": one person would approve every later call.`,
    );
  }
  if (!approver) {
    return new DecisionRefusedError('approver_required', `${label} needs ${required} distinct approvers; say who you are (approver).`);
  }
  return { approvals: (call.approvals?.length ?? 0) + 1, required };
}
