import { z } from 'zod';
import { PendingApproval } from './pending-approval.js';

/** A pending approval seen across runs: the call plus the run it belongs to and a global id. */
export const WaitingApproval = PendingApproval.extend({
  /** Global, URL-safe id (workflow id + call id). */
  approvalId: z.string(),
  /** The run (workflow id) the call belongs to; for a sub-agent's call, the top-level run. */
  runId: z.string(),
  agent: z.string(),
  userPrompt: z.string(),
  requestedBy: z.string().optional(),
});

export type WaitingApproval = z.infer<typeof WaitingApproval>;
