/**
 * What waits, in the shapes the seeds' clients read: LangChain's HITL interrupt and the OpenAI Agents SDK's
 * interruptions. Views only: built from the pending approvals, never stored.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { ToolArgs } from './tool-args.js';

/** The decisions a LangChain HITL client can send (`ignore` and `respond` are ours and LangGraph's). */
export const LANGCHAIN_DECISION_TYPES = ['approve', 'edit', 'reject'] as const;

/** LangChain's `__interrupt__` value (HITLRequest): the oldest pending batch, one entry per call, in order. */
export const LangChainInterrupt = builtOnce('schemas/seed-views.LangChainInterrupt', () =>
  z.object({
    action_requests: z.array(
      z.object({
        name: z.string(),
        args: ToolArgs,
        description: z.string(),
        /** Ours: the call id, for decisions that name their call. */
        id: z.string(),
        /** Ours: `args` was cut to the list budget; the `pendingApproval` query has them whole. */
        args_truncated: z.boolean().optional(),
      }),
    ),
    review_configs: z.array(z.object({ action_name: z.string(), allowed_decisions: z.array(z.enum(LANGCHAIN_DECISION_TYPES)) })),
  }),
);

/** An OpenAI Agents SDK interruption (a serialized RunToolApprovalItem): who asks, for which tool, with what. */
export const ToolApprovalItem = builtOnce('schemas/seed-views.ToolApprovalItem', () =>
  z.object({
    type: z.literal('tool_approval_item'),
    /** The agent whose call it is: a sub-agent's calls carry the sub-agent's name. */
    agent: z.object({ name: z.string() }),
    rawItem: z.object({
      type: z.literal('function_call'),
      /** Our call id, as decisions name it. */
      callId: z.string(),
      name: z.string(),
      /** The arguments as a JSON string. */
      arguments: z.string(),
      status: z.literal('in_progress'),
    }),
    /** Ours: the arguments were cut to the list budget; the `pendingApproval` query has them whole. */
    argumentsTruncated: z.boolean().optional(),
  }),
);

export type LangChainInterrupt = z.infer<typeof LangChainInterrupt>;
export type ToolApprovalItem = z.infer<typeof ToolApprovalItem>;
