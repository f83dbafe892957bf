import { z } from 'zod';
import { ApprovalPolicyOverride } from './approval-policy.js';

/** Input of `agentWorkflow`, part of the wire contract. */
export const AgentWorkflowInput = z.object({
  /** Name of an agent in the worker's registry. */
  agent: z.string().min(1),
  prompt: z.string().min(1),
  /** Who asked; with `fourEyes`, they may not approve their own run's calls. */
  requestedBy: z.string().min(1).optional(),
  /** @default the agent's, else 25 */
  maxSteps: z.number().int().min(1).max(100_000).optional(),
  /** Per-run overrides of the agent's approval policy. */
  approval: ApprovalPolicyOverride.optional(),
  /** Data tools receive and the model never sees (like LangGraph's InjectedState). */
  context: z.record(z.string(), z.unknown()).optional(),
});

export type AgentWorkflowInput = z.infer<typeof AgentWorkflowInput>;
