import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { LIMITS } from '../contract/limits.js';
import { jsonDepthExceeds } from '../bounds/json-depth.js';
import { utf8Length } from '../bounds/truncate.js';
import { Interrupts } from './agent-options.js';
import { ApprovalPolicyOverride } from './approval-policy.js';
import { CarriedState } from './carried-state.js';
import { ContinueAsNewOptions } from './continue-as-new-options.js';
import { MAX_TOKEN_LENGTH } from '../signing/jws.js';
import { SessionOptions } from './session.js';

/** Why a run started with `carry` by a caller is refused (by the client before it starts, by the run otherwise). */
export const CARRY_FROM_CALLER = 'carry: only a run continuing as new sets it, never a caller';

/** Input of `agentWorkflow`, part of the wire contract. */
export const AgentWorkflowInput = builtOnce('schemas/agent-workflow-input.AgentWorkflowInput', () =>
  z.object({
    /** Name of an agent in the worker's registry. */
    agent: z.string().min(1).max(128),
    prompt: z.string().min(1).max(LIMITS.promptChars),
    /** Who asked; with `fourEyes`, they may not approve their own run's calls. */
    requestedBy: z.string().min(1).max(200).optional(),
    /**
     * A signed request token (`hitl-request+jwt`) naming who asked, for this workflow id, agent and prompt. A run whose
     * decisions must be signed takes `requestedBy` only from it (src/workflows/proven-requester.ts).
     */
    requestToken: z.string().min(1).max(MAX_TOKEN_LENGTH).optional(),
    /** @default the agent's, else 25 */
    maxSteps: z.number().int().min(1).max(100_000).optional(),
    /** Per-run overrides of the agent's approval policy. */
    approval: ApprovalPolicyOverride.optional(),
    /**
     * Data tools, hooks and conditions receive and the model never sees (LangGraph's `context`); checked against the
     * agent's `contextSchema` when it has one.
     */
    context: z
      .record(z.string(), z.unknown())
      .refine((value) => !jsonDepthExceeds(value) && utf8Length(JSON.stringify(value)) <= LIMITS.contextBytes, {
        message: `context is limited to ${LIMITS.contextBytes} bytes of JSON, nested at most 64 deep`,
      })
      .optional(),
    /** Breakpoints for this run, over the agent's (per point): `{beforeTools: true}` pauses before every tool step. */
    interrupt: Interrupts.optional(),
    /** Stay open after each answer for the next `message` (maxSteps then applies per turn). */
    session: SessionOptions.optional(),
    continueAsNew: ContinueAsNewOptions.optional(),
    /** Set by the run itself when it continues as new; refused from callers (src/workflows/carry-origin.ts). */
    carry: CarriedState.optional(),
  }),
);

export type AgentWorkflowInput = z.infer<typeof AgentWorkflowInput>;
/** What callers send (defaults not yet applied). */
export type AgentWorkflowArgs = z.input<typeof AgentWorkflowInput>;
