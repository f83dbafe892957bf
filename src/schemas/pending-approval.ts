import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { BreakpointKind } from './agent-options.js';
import { OnTimeout } from './approval-policy.js';
import { DecisionType } from './decision.js';
import { ReviewOutcome } from './review.js';
import { ToolArgs } from './tool-args.js';

/** An approval counted toward a quorum; `until`, under `validFor`, when it lapses (since patch set 21). */
export const CountedApproval = builtOnce('schemas/pending-approval.CountedApproval', () =>
  z.object({ approver: z.string(), at: z.iso.datetime(), until: z.iso.datetime().optional() }),
);

/**
 * Who wrote a call instead of the model: an approver who edited another call (`callId`, `toolName`: that call) into
 * one their authority could not approve, or a person who edited the model's reply at a breakpoint (`callId`
 * `break-<n>`, `toolName` `breakpoint:<where>`). Such a call waits for someone else: its writer may not approve or
 * edit it (only withdraw it), an `always` approval does not settle it, and its deadline never approves it.
 */
export const WrittenBy = builtOnce('schemas/pending-approval.WrittenBy', () =>
  z.object({ approver: z.string().optional(), callId: z.string(), toolName: z.string() }),
);
export type WrittenBy = z.infer<typeof WrittenBy>;

/** Why a call that had been approved waits again. */
export const REPEND_REASONS = ['consent_expired', 'world_changed', 'precheck_failed'] as const;

/** A gated tool call waiting for a decision: what the `pendingApprovals` query and the HTTP API show. */
export const PendingApproval = builtOnce('schemas/pending-approval.PendingApproval', () =>
  z.object({
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
    /**
     * Set in a list too large for its answer (src/workflows/listed-pending.ts): the arguments, `description` and
     * `world` are cut to 512-byte previews. The `pendingApproval` query has the call whole.
     */
    shortened: z.literal(true).optional(),
    description: z.string(),
    allowedDecisions: z.array(DecisionType),
    requestedAt: z.iso.datetime(),
    deadline: z.iso.datetime(),
    step: z.number().int(),
    approvers: z.array(z.string()).optional(),
    /** Who may not approve or edit it: the run's requester, under the four-eyes rule, and whoever wrote it (`proposedBy`). */
    excludedApprovers: z.array(z.string()).optional(),
    onTimeout: OnTimeout,
    /** The policy rule that gated the call, e.g. `tools.process_refund.when`. */
    rule: z.string(),
    /**
     * The version of the decision rules the call is checked under, fixed when it is announced so a paused run's
     * decisions replay as they were judged. 2: an edit into a gated call needs that call's approvers, and the
     * four-eyes rule needs the approver to say who they are. 3: an edit into another tool is judged by that tool's
     * policy, as if the model had proposed it. 4: quorum (`requiredApprovals`): each approver counts once, an edit
     * of a call needing several approvals waits for them anew, and `always approve` cannot bypass a quorum. 5:
     * approver entries name one kind, `user:<id>` or `group:<name>`, or either (a bare name; src/policy/may-decide.ts).
     * 6: under four eyes, the requester and the call's writer may not respond either (they may withdraw it).
     * @default 1
     */
    checks: z.number().int().optional(),
    /** Distinct approvals needed before the tool runs (set when more than one). */
    requiredApprovals: z.number().int().optional(),
    /** Approvals counted so far toward `requiredApprovals`, oldest first. */
    approvals: z.array(CountedApproval).optional(),
    /** The reviewer escalated to humans (or could not answer): its reasoning. */
    review: ReviewOutcome.optional(),
    /** The approver ladder: when each tier joins, who, and whether it has. */
    escalations: z.array(z.object({ at: z.iso.datetime(), approvers: z.array(z.string()), reached: z.boolean() })).optional(),
    /** How long an approval holds before the tool must have started, e.g. `15m`. */
    validFor: z.string().optional(),
    /** What the tool's precheck saw of the world when the call was shown: the tool runs only if it still holds. */
    world: z.unknown().optional(),
    /**
     * The call was proposed by an edit and its world, or its tool's description, is still being looked up: a decision
     * that would run it is refused (`not_ready`) until they are here, a moment later.
     */
    preparing: z.literal(true).optional(),
    /** The call had been approved and waits again: why, and what changed. */
    repended: z
      .object({
        reason: z.enum(REPEND_REASONS),
        /** The id the earlier decision was given under. */
        previousId: z.string(),
        approvedBy: z.string().optional(),
        message: z.string(),
        /** `world_changed`: what the approvers had seen (`world` is what holds now). */
        worldBefore: z.unknown().optional(),
      })
      .optional(),
    /** A person wrote this call, by an edit of another call or of the model's reply at a breakpoint (WrittenBy). */
    proposedBy: WrittenBy.optional(),
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
  }),
);

export type PendingApproval = z.infer<typeof PendingApproval>;
export type CountedApproval = z.infer<typeof CountedApproval>;
export type RependReason = (typeof REPEND_REASONS)[number];
