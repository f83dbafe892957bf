/**
 * Decisions a human (or another service) sends for gated tool calls. The same JSON works from TypeScript, the
 * `temporal` CLI, the HTTP API and any other SDK.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { LIMITS } from '../contract/limits.js';
import { MAX_TOKEN_LENGTH } from '../signing/jws.js';
import { ToolArgs } from './tool-args.js';

/**
 * `ignore` skips the call without a reason: the tool does not run and the model is told a human chose to skip it
 * (LangGraph's HumanResponse `ignore`). Allowed wherever a policy's `allowedDecisions` allow it, as every type.
 */
export const DECISION_TYPES = ['approve', 'edit', 'reject', 'respond', 'ignore'] as const;
export const DecisionType = builtOnce('schemas/decision.DecisionType', () => z.enum(DECISION_TYPES));

export const Decision = builtOnce('schemas/decision.Decision', () =>
  z
    .strictObject({
      /** Call id (see PendingApproval.id). Without ids, decisions map in order onto the oldest pending batch. */
      id: z.string().min(1).max(300).optional(),
      type: DecisionType,
      /** `edit`: the new arguments, validated against the target tool's schema. */
      args: ToolArgs.optional(),
      /** `edit`: run a different tool instead. */
      name: z.string().min(1).max(128).optional(),
      /** `reject`: the reason the model is told. `respond`: the tool result. Otherwise a comment for the audit log. */
      message: z.string().max(LIMITS.decisionMessageChars).optional(),
      /** `approve`/`reject`: apply to every later call of this tool in this run. */
      always: z.boolean().optional(),
      /** When given, must match the pending call's `argsHash`: the approver saw these exact args. */
      argsHash: z.string().min(1).max(100).optional(),
      /** When given, must be the pending call's tool: the approver saw this tool (LangGraph's accept names it). */
      toolName: z.string().min(1).max(128).optional(),
      approver: z.string().min(1).max(200).optional(),
      /**
       * A signed decision token (compact JWS) for exactly this decision: the run verifies it, and its identity replaces
       * `approver`/`groups`. Required when the run requires signed decisions (README, "Identities and signed decisions").
       */
      token: z.string().min(1).max(MAX_TOKEN_LENGTH).optional(),
    })
    .superRefine((d, ctx) => {
      if (d.type === 'edit' && d.args === undefined && d.name === undefined) {
        ctx.addIssue({ code: 'custom', message: 'an edit needs new `args` and/or a new tool `name`', path: ['args'] });
      }
      if (d.type !== 'edit' && (d.args !== undefined || d.name !== undefined)) {
        ctx.addIssue({ code: 'custom', message: `\`args\` and \`name\` belong to edits, not to ${d.type}`, path: ['args'] });
      }
      if (d.type === 'respond' && !d.message) {
        ctx.addIssue({ code: 'custom', message: 'a respond decision needs the `message` the model receives', path: ['message'] });
      }
      if (d.always && d.type !== 'approve' && d.type !== 'reject') {
        ctx.addIssue({ code: 'custom', message: '`always` applies to approve and reject only', path: ['always'] });
      }
    }),
);

export const DecideInput = builtOnce('schemas/decision.DecideInput', () =>
  z.strictObject({
    decisions: z.array(Decision).min(1, 'send at least one decision').max(LIMITS.decisionsPerInput),
    /** Who decides; each decision may name its own `approver` instead. */
    approver: z.string().min(1).max(200).optional(),
    /** Groups of the approver, as asserted by a trusted caller (the HTTP API); matched against a tool's `approvers`. */
    groups: z.array(z.string().min(1).max(200)).max(50).optional(),
  }),
);

export const AppliedDecision = builtOnce('schemas/decision.AppliedDecision', () =>
  z.object({
    id: z.string(),
    type: DecisionType,
    toolName: z.string(),
    /** Hash of the arguments the tool runs with (after an edit, the new ones). */
    argsHash: z.string(),
    approver: z.string().optional(),
    /** The sub-agent run the decision was passed on to, which owns the call. */
    forwardedTo: z.string().optional(),
    /** The edit became a new pending call (for the other tool's approvers) with this id. */
    proposedAs: z.string().optional(),
    /** An approval toward a quorum: approvals counted so far, of how many; the call runs once they are equal. */
    quorum: z.object({ approvals: z.number().int(), required: z.number().int() }).optional(),
  }),
);

export const DecideResult = builtOnce('schemas/decision.DecideResult', () => z.object({ applied: z.array(AppliedDecision) }));

export type DecisionType = z.infer<typeof DecisionType>;
export type Decision = z.infer<typeof Decision>;
export type DecideInput = z.infer<typeof DecideInput>;
export type AppliedDecision = z.infer<typeof AppliedDecision>;
export type DecideResult = z.infer<typeof DecideResult>;
