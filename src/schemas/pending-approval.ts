import { z } from 'zod';
import { BreakpointKind } from './agent-options.js';
import { OnTimeout } from './approval-policy.js';
import { DecisionType } from './decision.js';
import { ToolArgs } from './tool-args.js';

/** A gated tool call waiting for a decision: what the `pendingApprovals` query and the HTTP API show. */
export const PendingApproval = z.object({
  /**
   * The call id decisions name: ours (`call-3`), unique in the run. A call that waits again (an edit proposed into
   * another tool) gets `<id>.<n>`; a sub-agent's call is shown in its parent as `<parent call id>/<id>`. Runs from
   * before own ids used the model's tool call id.
   */
  id: z.string(),
  toolName: z.string(),
  args: ToolArgs,
  /** SHA-256 of the canonical (RFC 8785) JSON of `args`. */
  argsHash: z.string(),
  /** Set in lists when `args` was cut to keep the list small; the `pendingApproval` query has them whole. */
  argsTruncated: z.boolean().optional(),
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
   * four-eyes rule needs the approver to say who they are. 3: an edit into another tool is judged by that tool's
   * policy, as if the model had proposed it. @default 1
   */
  checks: z.number().int().optional(),
  /** An approver edited another call into this one, which their authority could not approve: it waits anew. */
  proposedBy: z.object({ approver: z.string().optional(), callId: z.string(), toolName: z.string() }).optional(),
  /** Set when the call belongs to a sub-agent's run: the workflow id of the run that owns it. */
  subAgentWorkflowId: z.string().optional(),
  /** The agent whose call it is (a sub-agent's calls carry the sub-agent's name). */
  agent: z.string().optional(),
  /**
   * Set when this is not a tool call but a breakpoint (`id` `break-<n>`, `toolName` `breakpoint:<where>`): the run
   * paused before or after the model, or before its tools. Decided like a call: approve continues, edit changes
   * what `args` shows, reject (with a message) stops or redirects the run.
   */
  breakpoint: BreakpointKind.optional(),
});

export type PendingApproval = z.infer<typeof PendingApproval>;
