import { z } from 'zod';
import { DecisionType } from './decision.js';
import { ToolArgs } from './tool-args.js';

export const AUDIT_VIA = ['update', 'signal', 'timeout', 'sticky'] as const;

/** One decision input, applied or refused: who, what, when (workflow time), and the args before and after. */
export const AuditEntry = z.object({
  seq: z.number().int(),
  at: z.iso.datetime(),
  via: z.enum(AUDIT_VIA),
  outcome: z.enum(['applied', 'refused']),
  type: z.union([DecisionType, z.literal('timeout')]).optional(),
  id: z.string().optional(),
  toolName: z.string().optional(),
  approver: z.string().optional(),
  argsBefore: ToolArgs.optional(),
  argsAfter: ToolArgs.optional(),
  /** After an edit that switched tools. */
  toolNameAfter: z.string().optional(),
  message: z.string().optional(),
  always: z.boolean().optional(),
  refusal: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The sub-agent run a decision was passed on to (which records it in its own log too). */
  forwardedTo: z.string().optional(),
  /** A malformed input as received (truncated), so the log accounts for it. */
  input: z.string().optional(),
});

export type AuditEntry = z.infer<typeof AuditEntry>;
