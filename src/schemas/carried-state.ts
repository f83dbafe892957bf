/**
 * What a run hands to its next run when it continues as new: everything needed to go on exactly where it was,
 * including calls still waiting for a decision (with their original deadlines) and `always` decisions. The one
 * schema both sides use: `AgentRun.carry()` builds it, `AgentRun.resume()` reads it.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { AgentSnapshot } from './agent-snapshot.js';
import { ApprovalPolicy } from './approval-policy.js';
import { AuditEntry } from './audit-entry.js';
import { CallRecord } from './call-record.js';
import { ChatMessage } from './chat-message.js';
import { ModelCallsCarry } from './model-call.js';
import { PolicyOutcome, Usage } from './run-state.js';
import { StreamState } from './stream-wire.js';

export const DecidedSummary = builtOnce('schemas/carried-state.DecidedSummary', () =>
  z.object({ type: z.string(), approver: z.string().optional() }),
);
/** An `always` decision: it settles every later call of its tool in this run. */
export const AlwaysDecision = builtOnce('schemas/carried-state.AlwaysDecision', () =>
  z.object({
    type: z.enum(['approve', 'reject']),
    approver: z.string().optional(),
    /** The groups they decided with: a later call takes the decision only if they may decide it (patch set 20). */
    groups: z.array(z.string()).optional(),
    message: z.string().optional(),
  }),
);

export const CARRIED_STATE_VERSION = 2;

const CarriedStateV2 = builtOnce('schemas/carried-state.CarriedStateV2', () =>
  z.object({
    version: z.literal(CARRIED_STATE_VERSION),
    snapshot: AgentSnapshot,
    policy: ApprovalPolicy,
    maxSteps: z.number().int(),
    /** The run was waiting for the next message of its session. */
    awaitingMessage: z.boolean(),
    step: z.number().int(),
    turnSteps: z.number().int(),
    corrected: z.boolean(),
    messages: z.array(ChatMessage),
    /** Messages compacted away in earlier runs, so transcript offsets keep counting from the first message. */
    messagesDropped: z.number().int().default(0),
    usage: Usage,
    calls: z.array(CallRecord),
    /** The number of the last call id handed out (`call-<n>`). */
    lastCallNumber: z.number().int().default(0),
    decided: z.array(z.tuple([z.string(), DecidedSummary])),
    always: z.array(z.tuple([z.string(), AlwaysDecision])),
    /** Decision tokens already used, with their expiry (epoch ms). */
    usedTokens: z.array(z.tuple([z.string(), z.number()])).default([]),
    audit: z.array(AuditEntry),
    /** Audit entries left behind in earlier runs (see `previousRunIds`). */
    auditDropped: z.number().int(),
    policyOutcomes: z.array(PolicyOutcome),
    queuedMessages: z.array(z.string()),
    endRequested: z.boolean(),
    /** The `end` request's reason, for the result. */
    endReason: z.string().optional(),
    idleDeadline: z.iso.datetime().optional(),
    lastOutput: z.string().optional(),
    notificationSeq: z.number().int(),
    /** Sub-agents: the sequence number of the last report to the parent (the parent ignores older ones). */
    parentReportSeq: z.number().int().default(0),
    /** Earlier Temporal run ids of this workflow id, newest last: where older history and audit entries live. */
    previousRunIds: z.array(z.string()),
    /**
     * The first run of this workflow id's chain (Temporal's firstExecutionRunId), which continue-as-new, a retry and
     * a reset all keep: the next run takes the carry only from its own chain (src/workflows/carry-origin.ts).
     */
    firstRunId: z.string().optional(),
    /** Model calls: the models chosen and what hooks did. */
    // A function: zod hands a default object out as given, shallowly copied, so its array would be one shared by every
    // parse, and by every run of a worker since schemas are built once (src/schemas/built-once.ts).
    modelCalls: ModelCallsCarry.default(() => ({ entries: [], retries: 0 })),
    /** The number of the last breakpoint (`break-<n>`); a run never continues as new while one waits. */
    lastBreakNumber: z.number().int().default(0),
    /**
     * The run's Workflow Stream (its log, bounded by the stream's own limit), so offsets go on where they stopped
     * and watchers follow the chain. Read before the rest is validated (src/workflows/run-events.ts).
     */
    stream: StreamState.optional(),
  }),
);

/** Runs that continued as new under the first version carried other names for the same things. */
function fromVersion1(value: unknown): unknown {
  const v1 = value as Record<string, unknown> | null;
  if (!v1 || typeof v1 !== 'object' || v1.version !== 1) return value;
  const { status, inbox, sticky, ...rest } = v1;
  return { ...rest, version: 2, awaitingMessage: status === 'awaiting_message', queuedMessages: inbox, always: sticky };
}

export const CarriedState = builtOnce('schemas/carried-state.CarriedState', () => z.preprocess(fromVersion1, CarriedStateV2));

export type DecidedSummary = z.infer<typeof DecidedSummary>;
export type AlwaysDecision = z.infer<typeof AlwaysDecision>;
export type CarriedState = z.infer<typeof CarriedStateV2>;
