import { z } from 'zod';
import { DecidedVia } from './call-record.js';
import { DecisionType } from './decision.js';
import { ToolArgs } from './tool-args.js';

/** One decision input, applied or refused: who, what, when (workflow time), and the args before and after. */
export const AuditEntry = z.object({
  seq: z.number().int(),
  at: z.iso.datetime(),
  via: DecidedVia,
  outcome: z.enum(['applied', 'refused']),
  type: z.union([DecisionType, z.literal('timeout')]).optional(),
  id: z.string().optional(),
  toolName: z.string().optional(),
  approver: z.string().optional(),
  argsBefore: ToolArgs.optional(),
  argsAfter: ToolArgs.optional(),
  /** After an edit that switched tools. */
  toolNameAfter: z.string().optional(),
  /** The edit became a new pending call for the other tool's approvers: its id. */
  proposedAs: z.string().optional(),
  message: z.string().optional(),
  always: z.boolean().optional(),
  refusal: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The sub-agent run a decision was passed on to (which records it in its own log too). */
  forwardedTo: z.string().optional(),
  /** A malformed input as received (cut), so the log accounts for it. */
  input: z.string().optional(),
});

export type AuditEntry = z.infer<typeof AuditEntry>;
