/** Internal to runs: a sub-agent run tells its parent what it waits for (not part of the wire contract). */
import { defineSignal } from '@temporalio/workflow';
import type { PendingApproval } from '../schemas/pending-approval.js';

export interface ChildApprovals {
  workflowId: string;
  seq: number;
  pending: PendingApproval[];
  /** The sub-agent's tools: what an edit of its calls may turn into. */
  tools: string[];
  /** Calls it received a decision for (taken or refused) since its previous report. */
  answered?: string[];
}
export const childApprovalsSignal = defineSignal<[ChildApprovals]>('hitl.childApprovals');
