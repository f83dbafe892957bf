/**
 * Request and response bodies of the HTTP API. Bodies are strict: an unknown field is refused, so a typo never
 * silently turns into a default (an `alwys: true` that approves only once).
 */
import { z } from 'zod';
import { HITL_STATUSES } from '../contract/search-attributes.js';
import { DecideResult } from '../schemas/decision.js';
import { PendingApproval } from '../schemas/pending-approval.js';
import { SessionOptions } from '../schemas/session.js';
import { ToolArgs } from '../schemas/tool-args.js';

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** A pending approval over HTTP: the REST names (`arguments`, a global `id`) and what the caller may do with it. */
export const ApprovalView = PendingApproval.pick({
  toolName: true,
  argsHash: true,
  description: true,
  allowedDecisions: true,
  requestedAt: true,
  deadline: true,
  step: true,
  onTimeout: true,
  approvers: true,
}).extend({
  /** Global approval id (URL-safe). */
  id: z.string(),
  /** The run (workflow id). */
  runId: z.string(),
  callId: z.string(),
  agent: z.string(),
  arguments: ToolArgs,
  userPrompt: z.string(),
  requestedBy: z.string().optional(),
  /** Whether the caller may decide it (approvers and the four-eyes rule). */
  canDecide: z.boolean(),
  temporalUiUrl: z.string(),
});

const argsHash = z.string().optional().describe('Hash of the arguments you saw; refused with 409 if they changed');

export const ApproveBody = z.strictObject({
  /** Approve with these arguments instead (an edit). */
  modifiedArguments: ToolArgs.optional(),
  always: z.boolean().optional(),
  comment: z.string().max(20_000).optional(),
  argsHash,
});
export const RejectBody = z.strictObject({ reason: z.string().max(20_000).optional(), always: z.boolean().optional(), argsHash });
export const EditBody = z.strictObject({
  name: z.string().min(1).optional(),
  arguments: ToolArgs,
  comment: z.string().max(20_000).optional(),
  argsHash,
});
export const RespondBody = z.strictObject({ message: z.string().min(1).max(20_000) });

/** What a decision over HTTP answers: the `decide` update's own result. */
export const DecisionResponse = DecideResult;

export const StartRunBody = z.strictObject({
  agent: z.string().min(1),
  prompt: z.string().min(1).max(100_000),
  context: z.record(z.string(), z.unknown()).optional(),
  maxSteps: z.number().int().min(1).max(10_000).optional(),
  /** Keep the run open for more messages (`POST /api/runs/{id}/messages`). */
  session: SessionOptions.optional(),
});
export const StartRunResponse = z.object({ runId: z.string(), temporalUiUrl: z.string() });

export const ApprovalListQuery = z.strictObject({ agent: z.string().optional(), tool: z.string().optional() });
export const RunListQuery = z.strictObject({
  status: z.enum(HITL_STATUSES).optional(),
  agent: z.string().optional(),
});
export const IdParam = z.object({ id: z.string().min(1).max(2000) });
/** Not strict: every other request header passes through. */
export const DecisionHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'an Idempotency-Key is 1 to 255 visible ASCII characters')
    .optional()
    .describe('Retrying with the same key and body answers as the first attempt did, and never decides twice'),
});

export const Me = z.object({ approver: z.string(), groups: z.array(z.string()) });

/** A tool as the inbox sees it: `parameters` is the JSON Schema the model is sent, used to check edits in the page. */
export const ToolView = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});
