import { z } from 'zod';
import { PendingApproval } from './pending-approval.js';
import { RunProblem } from './run-problem.js';

/** A pending approval seen across runs: the call plus the run it is listed under and a global id. */
export const WaitingApproval = PendingApproval.extend({
  /** Global, URL-safe id (the owning run's workflow id and the call id). */
  approvalId: z.string(),
  /** The run the call is listed under; for a sub-agent's call, the top-level run (the owner is `subAgentWorkflowId`). */
  workflowId: z.string(),
  agent: z.string(),
  userPrompt: z.string(),
  requestedBy: z.string().optional(),
  /** The run is stuck: the call cannot be decided until it is unstuck (set by `findApproval`). */
  problem: RunProblem.optional(),
});

export type WaitingApproval = z.infer<typeof WaitingApproval>;
