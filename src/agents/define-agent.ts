/** An agent is plain data: instructions, model, tools by name, approval policy, step limit, output format. */
import type { z } from 'zod';
import { ApprovalPolicy, type ApprovalPolicyInput } from '../schemas/approval-policy.js';
import { toolSpecs } from '../tools/registry.js';

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
  return { ...input, approval: ApprovalPolicy.parse(input.approval ?? {}), maxSteps: input.maxSteps ?? DEFAULT_MAX_STEPS };
}
