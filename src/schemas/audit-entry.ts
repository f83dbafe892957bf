import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { DecidedVia } from './call-record.js';
import { DecisionType } from './decision.js';
import { ReviewOutcome } from './review.js';
import { ToolArgs } from './tool-args.js';

/**
 * What the run itself noted about who decides, beside decisions: a reviewer's shadow verdict, an escalation to
 * humans (by a reviewer, a failed reviewer, or the approver ladder), and an approved call waiting again.
 */
export const AUDIT_EVENTS = [
  'shadow_verdict',
  'reviewer_escalated',
  'reviewer_failed',
  'escalated',
  'consent_expired',
  'world_changed',
  'precheck_failed',
  /** What a sub-agent did with a decision this run passed on (`forwarded`): took it, refused it, or never answered. */
  'forward_taken',
  'forward_refused',
  'forward_lost',
] as const;

/**
 * One decision input, applied, refused, or passed on to the sub-agent that owns the call (`forwarded`, which that run
 * records as applied or refused in its own log), or something the run noted (`outcome: 'noted'`): who, what, when
 * (workflow time), and the args before and after.
 */
export const AuditEntry = builtOnce('schemas/audit-entry.AuditEntry', () =>
  z.object({
    seq: z.number().int(),
    at: z.iso.datetime(),
    /** How it came: `run` for what the run noted on its own (an escalation tier, a consent that expired). */
    via: z.union([DecidedVia, z.literal('run')]),
    outcome: z.enum(['applied', 'refused', 'forwarded', 'noted']),
    event: z.enum(AUDIT_EVENTS).optional(),
    type: z.union([DecisionType, z.literal('timeout')]).optional(),
    id: z.string().optional(),
    toolName: z.string().optional(),
    /**
     * Who decided, as the run took it. On a refused decision, only the name its input gave, unchecked (its token or
     * identity may be what was refused): views show it as claimed.
     */
    approver: z.string().optional(),
    /** Set for automatic decisions: `reviewer:<name>`. */
    decidedBy: z.string().optional(),
    /** A reviewer's verdict (applied, recorded in shadow, escalated or failed). */
    review: ReviewOutcome.optional(),
    /** Quorum: approvals counted for the call after this one, of how many. */
    quorum: z.object({ approvals: z.number().int(), required: z.number().int() }).optional(),
    argsBefore: ToolArgs.optional(),
    argsAfter: ToolArgs.optional(),
    /** After an edit that switched tools. */
    toolNameAfter: z.string().optional(),
    /** The call waits again under this id: an edit proposed to another tool's approvers, or an approval that lapsed. */
    proposedAs: z.string().optional(),
    message: z.string().optional(),
    always: z.boolean().optional(),
    refusal: z.object({ code: z.string(), message: z.string() }).optional(),
    /** The sub-agent run a decision was passed on to (which records it in its own log too), or that answered it. */
    forwardedTo: z.string().optional(),
    /** A malformed input as received (cut), so the log accounts for it. */
    input: z.string().optional(),
  }),
);

export type AuditEntry = z.infer<typeof AuditEntry>;
