/**
 * Internal to runs: a sub-agent run tells its parent what it waits for (not part of the wire contract). The parent
 * takes reports only from its own sub-agents, whose workflow ids start with its own: anyone can send a signal, and
 * a forged report must not put calls in front of approvers or make the parent forward decisions elsewhere.
 */
import { defineSignal } from '@temporalio/workflow';
import { z } from 'zod';
import { PendingApproval } from '../schemas/pending-approval.js';

export const ChildApprovals = z.object({
  workflowId: z.string().min(1).max(1000),
  seq: z.number().int().nonnegative(),
  pending: z.array(z.preprocess(renamedOwner, PendingApproval)).max(1000),
  /** The sub-agent's tools: what an edit of its calls may turn into. */
  tools: z.array(z.string()).max(500),
  /** Calls it received a decision for (taken or refused) since its previous report. */
  answered: z.array(z.string()).max(10_000).optional(),
});
export type ChildApprovals = z.infer<typeof ChildApprovals>;

/** Reports from sub-agents on code from before the rename named a call's owner `workflowId`. */
function renamedOwner(value: unknown): unknown {
  const item = value as { workflowId?: unknown; subAgentWorkflowId?: unknown } | null;
  if (!item || typeof item !== 'object' || item.workflowId === undefined || item.subAgentWorkflowId !== undefined) return value;
  const { workflowId, ...rest } = item;
  return { ...rest, subAgentWorkflowId: workflowId };
}

export const childApprovalsSignal = defineSignal<[ChildApprovals]>('hitl.childApprovals');

/** The report, if it is well-formed and comes from a sub-agent of the run `parentWorkflowId`. */
export function acceptedReport(raw: unknown, parentWorkflowId: string): ChildApprovals | undefined {
  const parsed = ChildApprovals.safeParse(raw);
  return parsed.success && parsed.data.workflowId.startsWith(`${parentWorkflowId}/`) ? parsed.data : undefined;
}
