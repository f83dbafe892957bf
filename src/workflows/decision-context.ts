/** What the decision planner reads of a run, and what it plans: shared by the planner and its parts. */
import type { GateSettings } from '../schemas/call-record.js';
import type { DecidedSummary } from '../schemas/carried-state.js';
import type { CallFacts } from '../policy/call-facts.js';
import type { ApprovalPolicy } from '../schemas/approval-policy.js';
import type { Decision } from '../schemas/decision.js';
import type { McpTool } from '../schemas/mcp-tool.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { DecisionTrust } from '../signing/trust.js';
import type { ToolSpec } from '../tools/define-tool.js';
import type { SchemaCheckMode } from '../tools/json-schema-check.js';

export interface PlanContext {
  /** Undecided calls, oldest first, in the order the model asked for them. */
  pending: readonly PendingApproval[];
  /** What the run knows of calls no longer pending (who decided them), for "already decided". */
  decided: Pick<ReadonlyMap<string, DecidedSummary>, 'get'>;
  available: readonly string[];
  specs: Readonly<Record<string, ToolSpec>>;
  /** The MCP tools the run recorded when it started: edits into them are checked against their schemas. */
  mcpTools?: readonly McpTool[];
  /** The run's policy: an edit is judged by the policy of the call it turns into. */
  policy?: ApprovalPolicy;
  /** Under four eyes, the requester of the run (who may not approve what an edit turns into either). */
  requestedBy?: string;
  /** What the policy's conditions see besides the arguments, for judging what an edit turns a call into. */
  facts?: Omit<CallFacts, 'toolName' | 'callId'>;
  /** Tools of sub-agent runs, by workflow id, for edits of their calls. */
  subAgentTools?: ReadonlyMap<string, readonly string[]>;
  /** Signed decisions: how tokens are checked in this run (absent: no token is needed, and none can be checked). */
  signing?: SigningContext;
  /** Without `signing`, a decision that carries a token is refused rather than taken without it (runs since patch set 6). */
  refusesUncheckedTokens?: boolean;
  /** ...except for these sub-agents' calls (as shown here), whose runs check the token it passes on (since patch set 22). */
  tokensCheckedByOwner?: ReadonlySet<string>;
  /** An edit's arguments its tool does not take are refused rather than dropped (runs since patch set 6). */
  refusesUnknownEditArgs?: boolean;
  /** A decision input holding a `__proto__` key is refused as malformed (src/bounds/proto-keys.ts). */
  refusesProtoKeys?: boolean;
  /** Edited arguments holding a `__proto__` key or a non-finite number, even inside a JSON string, are invalid (since patch set 25). */
  refusesUnplainArgs?: boolean;
  /** How an edit's arguments are checked against an MCP tool's schema (schema-check-mode.ts). @default 'backtracking' */
  schemaChecks?: SchemaCheckMode;
  /** What an edit becomes is judged by gates that fail safe (classify-call.ts, `failSafe`; since patch set 28). */
  gatesFailSafe?: boolean;
  /** ...and read folded text too (classify-call.ts, `foldsText`; since patch set 32). */
  gatesFoldText?: boolean;
  /** A breakpoint's edit before the model may not hold a blank user message (since patch set 32). */
  refusesBlankUserMessages?: boolean;
  /** Whoever proposed a call by an edit may reject it (withdraw it), whatever its approvers. */
  proposersMayWithdraw?: boolean;
  /** A proposal's deadline never approves it: `onTimeout: 'approve'` becomes `'reject'` (proposal-gate.ts; since patch set 9). */
  deadlinesApproveNoProposal?: boolean;
  /** Tiers an escalation reached may edit the call within its tool, as they may approve it (runs since patch set 9). */
  escalatedMayEdit?: boolean;
  /** A decision naming someone by what is not a name is refused (src/bounds/identity-names.ts; since patch set 13). */
  refusesMalformedNames?: boolean;
  /** ...and counts every hidden character identity-names.ts knows among what makes a name malformed (since patch set 14). */
  refusesHiddenNames?: boolean;
  /** An input with `always approve` and `always reject` for one tool is refused (since patch set 20). */
  refusesOpposedAlways?: boolean;
}

export interface SigningContext {
  /** Every decision must carry a token. */
  required: boolean;
  trust?: DecisionTrust;
  /** The workflow's clock, epoch milliseconds. */
  now: number;
  /** Tokens bind to the top-level run and the call id as shown there: a sub-agent checks what its parent showed. */
  rootWorkflowId: string;
  /** This run's call ids as the top-level run shows them: `<prefix><id>` (empty for the top-level run). */
  shownIdPrefix: string;
  usedTokenIds: ReadonlySet<string>;
}

export interface PlannedDecision {
  call: PendingApproval;
  decision: Decision;
  approver?: string;
  /** The groups the approver decided with (for an `always` decision, which later calls take only within them). */
  groups?: readonly string[];
  /** The tool and arguments that run (after an edit, the new ones). */
  toolName: string;
  args: ToolArgs;
  argsHash: string;
  /** The edit turned the call into one its approver may not approve: it waits for these settings' approvers. */
  proposal?: { gate: GateSettings; rule: string };
  /** An approval toward a quorum: approvals counted once it is, of how many are needed. */
  quorum?: { approvals: number; required: number };
  /** The verified token the decision carried: its id is used up once the decision is applied. */
  token?: { id: string; expiresAt: number };
}
