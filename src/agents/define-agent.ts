/**
 * An agent is plain data: instructions, model, tools by name, approval policy, step limit, output format, and
 * LangGraph's agent options (model hooks, a model selector, breakpoints, tool-error handling, a typed context).
 */
import type { z } from 'zod';
import type { Interrupts, ModelHookRef, ModelSelectorRef } from '../schemas/agent-options.js';
import { ApprovalPolicy, type ApprovalPolicyInput } from '../schemas/approval-policy.js';
import type { OnToolError } from '../schemas/tool-errors.js';
import { toolSpecs } from '../tools/registry.js';
import { agentOptionProblems } from './agent-options-check.js';
import type { ContextSchema } from './context-schema.js';

export interface AgentDefinitionInput {
  name: string;
  /** The system prompt. */
  instructions: string;
  /** @default `OPENAI_MODEL`, else 'gpt-4.1' */
  model?: string;
  /** OpenAI-compatible endpoint for this agent. @default `OPENAI_BASE_URL` */
  baseURL?: string;
  /** Tool names from `src/tools/registry.ts`. */
  tools: string[];
  /** Which calls wait for a human. @default nothing is gated */
  approval?: ApprovalPolicyInput;
  /** @default 25 (LangGraph's recursion limit) */
  maxSteps?: number;
  /** The final answer must be JSON matching this schema; the model gets one corrective retry. */
  responseFormat?: z.ZodType;
  /** Every decision must carry a signed token the run verifies. @default HITL_REQUIRE_SIGNED_DECISIONS */
  requireSignedDecisions?: boolean;
  /** Rewrites what the model sees before each call, e.g. `{hook: 'trimMessages', options: {maxTokens: 4000}}`. */
  beforeModel?: ModelHookRef;
  /** Judges each reply: accept, replace, retry with a reason, or stop the run. */
  afterModel?: ModelHookRef;
  /** Chooses the model (and endpoint) for each call, e.g. `{selector: 'bySize', options: {…}}`. @default always `model` */
  modelSelector?: ModelSelectorRef;
  /** Breakpoints: pause for a human before or after the model, or before tools run. */
  interrupt?: z.input<typeof Interrupts>;
  /** Per tool: what a failure after its last retry does, over the tool's own `onError`. */
  toolErrors?: Record<string, OnToolError>;
  /** The run's `context` must match it; tools, hooks and conditions receive the checked value. */
  contextSchema?: ContextSchema;
}

export interface AgentDefinition extends Omit<AgentDefinitionInput, 'approval' | 'maxSteps'> {
  approval: ApprovalPolicy;
  maxSteps: number;
}

export const DEFAULT_MAX_STEPS = 25;

/** Validates the definition when the module loads, so a typo in a policy fails at startup, not mid-run. */
export function defineAgent(input: AgentDefinitionInput): AgentDefinition {
  const unknown = input.tools.filter((name) => !toolSpecs[name]);
  if (unknown.length) {
    throw new Error(`Agent "${input.name}" lists tools that are not in src/tools/registry.ts: ${unknown.join(', ')}`);
  }
  const problems = agentOptionProblems(input);
  if (problems.length) throw new Error(`Agent "${input.name}" has invalid options:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return { ...input, approval: ApprovalPolicy.parse(input.approval ?? {}), maxSteps: input.maxSteps ?? DEFAULT_MAX_STEPS };
}
