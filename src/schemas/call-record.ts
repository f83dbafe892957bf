/**
 * One tool call of the open step, from classification to result. A schema because the open step crosses
 * continue-as-new: a run can start over with calls still waiting for their decision.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { OnTimeout } from './approval-policy.js';
import { DecisionType } from './decision.js';
import { PendingApproval, WrittenBy } from './pending-approval.js';
import { ReviewConfig, ReviewOutcome } from './review.js';
import { ToolArgs } from './tool-args.js';

export const GateSettings = builtOnce('schemas/call-record.GateSettings', () =>
  z.object({
    allowedDecisions: z.array(DecisionType),
    description: z.string(),
    /** The policy gave its own description template (it then wins over the tool's own description). */
    descriptionFromPolicy: z.boolean().optional(),
    timeoutMs: z.number(),
    onTimeout: OnTimeout,
    approvers: z.array(z.string()).optional(),
    /** Milliseconds before the deadline. */
    remindersMs: z.array(z.number()),
    /** Distinct approvals needed (set when more than one). */
    requiredApprovals: z.number().int().optional(),
    review: ReviewConfig.optional(),
    /** Approver tiers: milliseconds after the call is shown. */
    escalate: z.array(z.object({ afterMs: z.number(), approvers: z.array(z.string()) })).optional(),
    /** How long an approval holds before the tool must have started. */
    validForMs: z.number().optional(),
  }),
);

/**
 * How a decision reached the call: by the update or the signal, by an earlier `always`, by its deadline, or by a
 * reviewer before any human saw it.
 */
export const DECIDED_VIA = ['update', 'signal', 'always', 'timeout', 'reviewer'] as const;
export const DecidedVia = builtOnce('schemas/call-record.DecidedVia', () =>
  z.preprocess((v) => (v === 'sticky' ? 'always' : v), z.enum(DECIDED_VIA)),
);

/** Epoch milliseconds until which an approval holds (the gate's `validFor`): the tool must have started by then. */
const validUntil = builtOnce('schemas/call-record.validUntil', () => z.number().optional());

export const Resolution = builtOnce('schemas/call-record.Resolution', () =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('approve'), via: DecidedVia, approver: z.string().optional(), validUntil }),
    z.object({
      kind: z.literal('edit'),
      via: DecidedVia,
      approver: z.string().optional(),
      toolName: z.string(),
      args: ToolArgs,
      validUntil,
    }),
    z.object({ kind: z.literal('reject'), via: DecidedVia, approver: z.string().optional(), message: z.string().optional() }),
    z.object({ kind: z.literal('respond'), via: DecidedVia, approver: z.string().optional(), message: z.string() }),
    /** Skipped: the tool does not run, the model is told a human chose to skip it. */
    z.object({ kind: z.literal('ignore'), via: DecidedVia, approver: z.string().optional() }),
    /** onTimeout: 'reject' */
    z.object({ kind: z.literal('timeout') }),
  ]),
);

/** What runs instead of the model's call after an approver edited it into another tool they could not approve. */
export const ProposedCall = builtOnce('schemas/call-record.ProposedCall', () =>
  z.object({
    toolName: z.string(),
    args: ToolArgs,
    approver: z.string().optional(),
    /** The policy rule that gates what it became (the call's own `rule` is the model's call's). */
    rule: z.string().optional(),
  }),
);

export const CallRecord = builtOnce('schemas/call-record.CallRecord', () =>
  z.object({
    /** Our id (runs from before own ids: the model's). */
    id: z.string(),
    /** The id the transcript answers the model with. @default id */
    modelId: z.string().optional(),
    toolName: z.string(),
    /** The model's JSON text (cut when over the size limit; the call is then invalid). */
    rawArgs: z.string(),
    step: z.number().int(),
    /** Parsed and valid; absent when the call is invalid (it then goes straight back to the model as an error). */
    args: ToolArgs.optional(),
    /** Told to the model before the call's result (e.g. that more calls were asked for than run). */
    note: z.string().optional(),
    /** Why the call cannot run, for the model; set for calls refused before any tool is looked at (too large). */
    problem: z.string().optional(),
    /** The policy rule that classified the call. */
    rule: z.string(),
    gate: GateSettings.optional(),
    pending: PendingApproval.optional(),
    /** How many times it was announced to approvers: the second and later waits get ids `<id>.<n>`. @default 1 */
    announcements: z.number().int().optional(),
    proposal: ProposedCall.optional(),
    /** Set when a person wrote the call, editing the model's reply at a breakpoint (patch breakpointCallsWaitForPeople). */
    writtenBy: WrittenBy.optional(),
    /** The reviewer's outcome, once it has reviewed the call (it reviews a call once). */
    review: ReviewOutcome.optional(),
    resolution: Resolution.optional(),
    /** `running` while its tool (or sub-agent) runs: a run never continues as new then. */
    status: z.enum(['waiting', 'running', 'done']),
    /** The tool message content, once done. */
    result: z.string().optional(),
  }),
);

export type GateSettings = z.infer<typeof GateSettings>;
export type DecidedVia = z.infer<typeof DecidedVia>;
export type Resolution = z.infer<typeof Resolution>;
export type ProposedCall = z.infer<typeof ProposedCall>;
export type CallRecord = z.infer<typeof CallRecord>;
