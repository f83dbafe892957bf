/**
 * Which tool calls wait for a human, and how. Plain data: defined per agent, overridable per run at start, and
 * evaluated deterministically inside the workflow.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { When } from './condition.js';
import { DecisionType } from './decision.js';
import { Duration } from './duration.js';
import { ReviewConfig } from './review.js';

export const ON_TIMEOUT = ['reject', 'approve', 'fail'] as const;
export const OnTimeout = builtOnce('schemas/approval-policy.OnTimeout', () => z.enum(ON_TIMEOUT));

/** One step up the approver ladder: once the call has waited `after`, these approvers may decide it too. */
export const EscalationTier = builtOnce('schemas/approval-policy.EscalationTier', () =>
  z.strictObject({
    after: Duration,
    approvers: z.array(z.string().min(1)).min(1),
  }),
);

export const ToolGateConfig = builtOnce('schemas/approval-policy.ToolGateConfig', () =>
  z.strictObject({
    /** @default all four */
    allowedDecisions: z.array(DecisionType).min(1).optional(),
    /** Template over `{{tool}}` and `{{args.path}}`; replaces the default "prefix + tool + args" text. */
    description: z.string().optional(),
    /** Gate only when this holds for the call's arguments. */
    when: When.optional(),
    timeout: Duration.optional(),
    onTimeout: OnTimeout.optional(),
    /** Approver identities or groups allowed to decide; anyone when omitted. */
    approvers: z.array(z.string().min(1)).min(1).optional(),
    /** Durations before the deadline at which reminders are sent. */
    reminders: z.array(Duration).optional(),
    /** Approvals needed from distinct allowed approvers before the tool runs; one reject rejects. @default 1 */
    requiredApprovals: z.number().int().min(1).max(20).optional(),
    /** A reviewer (a rule or a model) that decides before humans; they see the call only if it escalates. */
    review: ReviewConfig.optional(),
    /** Approver tiers by time, counted from when the call is shown: `[{after: '4h', approvers: ['managers']}]`. */
    escalate: z.array(EscalationTier).min(1).max(10).optional(),
    /**
     * How long an approval holds. A call whose tool has not started within it (still waiting on a sibling, or on a
     * worker) waits for a new decision.
     */
    validFor: Duration.optional(),
  }),
);

/** `true`: gated, all decisions. `false`: runs without approval. An object: gated as configured. */
export const ToolPolicy = builtOnce('schemas/approval-policy.ToolPolicy', () => z.union([z.boolean(), ToolGateConfig]));

export const DEFAULT_DESCRIPTION_PREFIX = 'Tool execution requires approval';

export const ApprovalPolicy = builtOnce('schemas/approval-policy.ApprovalPolicy', () =>
  z.strictObject({
    tools: z.record(z.string(), ToolPolicy).default({}),
    /** Policy for tools not listed. */
    default: ToolPolicy.default(false),
    descriptionPrefix: z.string().default(DEFAULT_DESCRIPTION_PREFIX),
    timeout: Duration.default('7d'),
    onTimeout: OnTimeout.default('reject'),
    /** The run's requester may not approve or edit its own gated calls. */
    fourEyes: z.boolean().default(false),
    /**
     * What a run's own policy (`approval` at start) may do to this one: only `tighten` it (gate more, narrow who
     * decides, need more approvals; src/policy/run-policy.ts says exactly what loosens), or `any` change.
     * @default 'tighten'
     */
    runOverrides: z.enum(['tighten', 'any']).default('tighten'),
  }),
);

/** Per-run overrides: listed tools replace the agent's entry for that tool; other fields replace the agent's. */
export const ApprovalPolicyOverride = builtOnce('schemas/approval-policy.ApprovalPolicyOverride', () =>
  z.strictObject({
    tools: z.record(z.string(), ToolPolicy).optional(),
    default: ToolPolicy.optional(),
    descriptionPrefix: z.string().optional(),
    timeout: Duration.optional(),
    onTimeout: OnTimeout.optional(),
    fourEyes: z.boolean().optional(),
  }),
);

export type OnTimeout = z.infer<typeof OnTimeout>;
export type EscalationTier = z.infer<typeof EscalationTier>;
export type ToolGateConfig = z.infer<typeof ToolGateConfig>;
export type ToolPolicy = z.infer<typeof ToolPolicy>;
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;
export type ApprovalPolicyInput = z.input<typeof ApprovalPolicy>;
export type ApprovalPolicyOverride = z.infer<typeof ApprovalPolicyOverride>;
