/**
 * The wire contract's rule for decisions without ids: they apply, in order, to the oldest pending batch. Shared by
 * the planner, the `interrupt` view (which shows that batch) and the API (which signs for it).
 */
import type { PendingApproval } from '../schemas/pending-approval.js';

/**
 * The calls of the oldest pending model reply (of this run or of one sub-agent), in the order the model asked for
 * them; empty when nothing waits.
 */
export function oldestBatch(pending: readonly PendingApproval[]): PendingApproval[] {
  const oldest = pending[0];
  return oldest ? pending.filter((p) => batchKey(p) === batchKey(oldest)) : [];
}

function batchKey(p: PendingApproval): string {
  return `${p.subAgentWorkflowId ?? ''}#${p.step}`;
}
