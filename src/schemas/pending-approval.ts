import { z } from 'zod';
import { OnTimeout } from './approval-policy.js';
import { DecisionType } from './decision.js';
import { ToolArgs } from './tool-args.js';

/** A gated tool call waiting for a decision: what the `pendingApprovals` query and the HTTP API show. */
export const PendingApproval = z.object({
  /** The model's tool call id. */
  id: z.string(),
  toolName: z.string(),
  args: ToolArgs,
  /** SHA-256 of the canonical (RFC 8785) JSON of `args`. */
  argsHash: z.string(),
  description: z.string(),
  allowedDecisions: z.array(DecisionType),
  requestedAt: z.iso.datetime(),
  deadline: z.iso.datetime(),
  step: z.number().int(),
  approvers: z.array(z.string()).optional(),
  /** Who may not approve or edit it: the run's requester, under the four-eyes rule. */
  excludedApprovers: z.array(z.string()).optional(),
  onTimeout: OnTimeout,
  /** The policy rule that gated the call, e.g. `tools.process_refund.when`. */
  rule: z.string(),
  /**
   * The version of the decision rules the call is checked under, fixed when it is announced so a paused run's
   * decisions replay as they were judged. 2: an edit into a gated call needs that call's approvers, and the
   * four-eyes rule needs the approver to say who they are. @default 1
   */
  checks: z.number().int().optional(),
  /** Set when the call belongs to a sub-agent's run: the workflow id that owns it. */
  workflowId: z.string().optional(),
});

export type PendingApproval = z.infer<typeof PendingApproval>;
