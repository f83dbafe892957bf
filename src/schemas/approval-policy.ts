/**
 * Which tool calls wait for a human, and how. Plain data: defined per agent, overridable per run at start, and
 * evaluated deterministically inside the workflow.
 */
import { z } from 'zod';
import { Condition } from './condition.js';
import { DecisionType } from './decision.js';
import { Duration } from './duration.js';

export const ON_TIMEOUT = ['reject', 'approve', 'fail'] as const;
export const OnTimeout = z.enum(ON_TIMEOUT);

export const ToolGateConfig = z.strictObject({
  /** @default all four */
  allowedDecisions: z.array(DecisionType).min(1).optional(),
  /** Template over `{{tool}}` and `{{args.path}}`; replaces the default "prefix + tool + args" text. */
  description: z.string().optional(),
  /** Gate only when this holds for the call's arguments. */
  when: Condition.optional(),
  timeout: Duration.optional(),
  onTimeout: OnTimeout.optional(),
  /** Approver identities or groups allowed to decide; anyone when omitted. */
  approvers: z.array(z.string().min(1)).min(1).optional(),
  /** Durations before the deadline at which reminders are sent. */
  reminders: z.array(Duration).optional(),
});

/** `true`: gated, all decisions. `false`: runs without approval. An object: gated as configured. */
export const ToolPolicy = z.union([z.boolean(), ToolGateConfig]);

export const DEFAULT_DESCRIPTION_PREFIX = 'Tool execution requires approval';

export const ApprovalPolicy = z.strictObject({
  tools: z.record(z.string(), ToolPolicy).default({}),
  /** Policy for tools not listed. */
  default: ToolPolicy.default(false),
  descriptionPrefix: z.string().default(DEFAULT_DESCRIPTION_PREFIX),
  timeout: Duration.default('7d'),
  onTimeout: OnTimeout.default('reject'),
  /** The run's requester may not approve or edit its own gated calls. */
  fourEyes: z.boolean().default(false),
});

/** Per-run overrides: listed tools replace the agent's entry for that tool; other fields replace the agent's. */
export const ApprovalPolicyOverride = z.strictObject({
  tools: z.record(z.string(), ToolPolicy).optional(),
  default: ToolPolicy.optional(),
  descriptionPrefix: z.string().optional(),
  timeout: Duration.optional(),
  onTimeout: OnTimeout.optional(),
  fourEyes: z.boolean().optional(),
});

export type OnTimeout = z.infer<typeof OnTimeout>;
export type ToolGateConfig = z.infer<typeof ToolGateConfig>;
export type ToolPolicy = z.infer<typeof ToolPolicy>;
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;
export type ApprovalPolicyInput = z.input<typeof ApprovalPolicy>;
export type ApprovalPolicyOverride = z.infer<typeof ApprovalPolicyOverride>;
