/**
 * Request and response bodies of the HTTP API. Bodies are strict: an unknown field is refused, so a typo never
 * silently turns into a default (an `alwys: true` that approves only once).
 */
import { z } from 'zod';
import { LIMITS } from '../contract/limits.js';
import { RUN_STATUSES } from '../contract/run-status.js';
import { Interrupts } from '../schemas/agent-options.js';
import { ApprovalPolicyOverride } from '../schemas/approval-policy.js';
import { ContinueAsNewOptions } from '../schemas/continue-as-new-options.js';
import { DecideResult } from '../schemas/decision.js';
import { McpToolAnnotations } from '../schemas/mcp-tool.js';
import { PendingApproval } from '../schemas/pending-approval.js';
import { RunProblem } from '../schemas/run-problem.js';
import { SessionOptions } from '../schemas/session.js';
import { ToolArgs } from '../schemas/tool-args.js';
import { ApprovalStatus } from '../schemas/approval-status.js';

/** `GET /api/approvals/{id}/status`: where an approval stands, with the approval id it waits under again. */
export const ApprovalStatusView = ApprovalStatus.extend({
  id: z.string(),
  /** With `waitsAs`: the approval id to decide now. */
  waitsAsId: z.string().optional(),
});

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
  rule: true,
  subAgentWorkflowId: true,
  proposedBy: true,
  breakpoint: true,
  requiredApprovals: true,
  approvals: true,
  review: true,
  escalations: true,
  validFor: true,
  world: true,
  preparing: true,
  repended: true,
}).extend({
  /** Global approval id (URL-safe). */
  id: z.string(),
  /** The run the call is listed under (for a sub-agent's call, the top-level run). */
  workflowId: z.string(),
  callId: z.string(),
  agent: z.string(),
  arguments: ToolArgs,
  /** `arguments` was cut to keep the list small; `GET /api/approvals/{id}` has them whole. */
  argumentsTruncated: z.boolean().optional(),
  /** The run had too many calls waiting for one list: `arguments`, `description` and `world` are cut to previews. */
  shortened: z.literal(true).optional(),
  userPrompt: z.string(),
  /** The session's (the top-level run's) workflow id, for clients that group approvals by session. */
  sessionId: z.string(),
  requestedBy: z.string().optional(),
  /** Whether the caller may decide it (approvers and the four-eyes rule). */
  canDecide: z.boolean(),
  /** Why not, when `canDecide` is false: the code the decision would be refused with (`proposer`: four eyes, as its writer). */
  whyNot: z
    .object({
      code: z.enum(['approver_required', 'approver_not_allowed', 'four_eyes', 'already_approved']),
      proposer: z.boolean().optional(),
      /** The proposer wrote the call at a breakpoint (an edit of the model's reply), not by an edit of another call. */
      atBreakpoint: z.boolean().optional(),
    })
    .optional(),
  /**
   * The caller may not approve it, but may withdraw it with a reject: they proposed it by an edit (a reject without
   * `always`), or, under four eyes, they requested the run and are among its approvers.
   */
  canWithdraw: z.boolean().optional(),
  temporalUiUrl: z.string(),
  /** `GET /api/approvals/{id}` only: the run is stuck, so the call cannot be decided until it is unstuck. */
  problem: RunProblem.optional(),
});

const argsHash = z.string().max(100).optional().describe('Hash of the arguments you saw; refused with 409 if they changed');
const message = z.string().max(LIMITS.decisionMessageChars);

export const ApproveBody = z.strictObject({
  /** Approve with these arguments instead (an edit). */
  modifiedArguments: ToolArgs.optional(),
  always: z.boolean().optional(),
  comment: message.optional(),
  argsHash,
});
export const RejectBody = z.strictObject({ reason: message.optional(), always: z.boolean().optional(), argsHash });
/**
 * A route that reads no body takes none but `{}`: a request taken while ignoring what its sender wrote (`/cancel`
 * with `{"force": true}`) is not the one they meant, as for a query string (NoQuery).
 */
export const NoBody = z.strictObject({});
/**
 * `/end`'s body: the run keeps the reason in its result, after who sent it (`by sam over HTTP: done`). Shorter than
 * the `end` input's 2,000 characters (EndInput), to leave room for the name.
 */
export const EndRunBody = z.strictObject({ reason: z.string().min(1).max(1500).optional() });
/** Spring-style clients send the reason as a query parameter; one in the body too must be the same (else 400). */
export const RejectQuery = z.strictObject({ reason: message.optional() });
/**
 * Routes that read nothing from the query string: anything there is refused, since a request taken while ignoring
 * what its sender wrote (`approve?reason=…`, `POST /api/runs?dryRun=true`) is not the one they meant.
 */
export const NoQuery = z.strictObject({});
export const EditBody = z.strictObject({
  name: z.string().min(1).max(128).optional(),
  arguments: ToolArgs,
  comment: message.optional(),
  argsHash,
});
export const RespondBody = z.strictObject({ message: message.min(1), argsHash });

/** What a decision over HTTP answers: the `decide` update's own result. */
export const DecisionResponse = DecideResult;

/** Names of agents and tools in queries: visibility queries take them as literals. */
const Name = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'letters, digits, `_`, `.`, `:` or `-`, at most 128');

export const StartRunBody = z.strictObject({
  agent: Name,
  prompt: z.string().min(1).max(LIMITS.promptChars),
  context: z.record(z.string(), z.unknown()).optional(),
  maxSteps: z.number().int().min(1).max(10_000).optional(),
  /** Breakpoints for this run, over the agent's. */
  interrupt: Interrupts.optional(),
  /** Keep the run open for more messages (`POST /api/runs/{id}/messages`). */
  session: SessionOptions.optional(),
  /** The run's own approval policy: by default it may only tighten the agent's (the run fails at start otherwise). */
  approval: ApprovalPolicyOverride.optional(),
  /** When the run starts over with fresh history, and what it keeps (README, Continue-as-new). */
  continueAsNew: ContinueAsNewOptions.optional(),
});
export const StartRunResponse = z.object({ workflowId: z.string(), runId: z.string(), temporalUiUrl: z.string() });

export const ApprovalListQuery = z.strictObject({
  /** Only this agent's calls, and those in its runs: a sub-agent's call is found by its own name and its parent's. */
  agent: Name.optional(),
  tool: Name.optional(),
  /** Only this run's calls. No control characters: Temporal's list query takes none, and its errors retry for 20 s. */
  workflowId: z
    .string()
    .min(1)
    .max(1000)
    .regex(/^[^\p{Cc}]*$/u, 'a workflow id has no control characters')
    .optional(),
  /** Seconds to wait, when nothing matches yet, for something to (a long poll for scripts): 0 to 60, in digits. */
  wait: z
    .string()
    .regex(/^\d{1,2}$/, 'seconds in decimal digits, 0 to 60')
    .transform(Number)
    .pipe(z.number().max(60, 'at most 60 seconds'))
    .optional(),
});
export const RunListQuery = z.strictObject({
  status: z.enum(RUN_STATUSES).optional(),
  agent: Name.optional(),
  /** Only runs that are stuck (a failing workflow task, or no worker), with why. */
  stuck: z.enum(['true', 'false']).optional(),
});
export const IdParam = z.object({ id: z.string().min(1).max(2000) });
/** A whole number in a query string: decimal digits (no sign, exponent, hex or spaces). */
export const DecimalQuery = z
  .string()
  .regex(/^\d{1,15}$/, 'decimal digits, at most 15')
  .transform(Number);
/** What of a run to read: the messages and decisions after these (each page says where it started, to go on from). */
export const RunQuery = z.strictObject({
  messagesFrom: DecimalQuery.optional(),
  decisionsFrom: DecimalQuery.optional(),
});
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
  /** MCP tools: the server's hints (readOnlyHint, destructiveHint…), as the run recorded them. */
  annotations: McpToolAnnotations.optional(),
});
