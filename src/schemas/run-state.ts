import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { RunOutcome, RunStatus } from '../contract/run-status.js';
import { AuditEntry } from './audit-entry.js';
import { ChatMessage } from './chat-message.js';
import { ModelCallEntry } from './model-call.js';
import { PendingApproval } from './pending-approval.js';
import { RetryingActivity } from './retrying-activity.js';
import { RunProblem } from './run-problem.js';
import { SessionEnd } from './session.js';

/** How the policy classified one tool call, kept so a reviewer can see why a call did or did not wait. */
export const PolicyOutcome = builtOnce('schemas/run-state.PolicyOutcome', () =>
  z.object({
    id: z.string(),
    toolName: z.string(),
    step: z.number().int(),
    gated: z.boolean(),
    rule: z.string(),
  }),
);

export const Usage = builtOnce('schemas/run-state.Usage', () =>
  z.object({ promptTokens: z.number().int(), completionTokens: z.number().int() }),
);

export const AgentResult = builtOnce('schemas/run-state.AgentResult', () =>
  z.object({
    /** `Ended`: a session closed by `end` or its idle timeout; `MaxSteps`: the step limit stopped it. */
    status: RunOutcome,
    /** The final assistant text. */
    output: z.string(),
    /** The validated structured output, for agents with a `responseFormat`. */
    structured: z.unknown().optional(),
    /** For `Ended`: how the session ended. */
    ended: SessionEnd.optional(),
    /** The audit log. */
    decisions: z.array(AuditEntry),
    steps: z.number().int(),
    usage: Usage,
  }),
);

export const RunState = builtOnce('schemas/run-state.RunState', () =>
  z.object({
    status: RunStatus,
    step: z.number().int(),
    agent: z.string(),
    prompt: z.string(),
    requestedBy: z.string().optional(),
    messages: z.array(ChatMessage),
    /** Position of `messages[0]` among all messages the run ever held (compacted ones included). */
    messagesFrom: z.number().int(),
    /** More messages follow `messages` than fit in one answer: ask again from `messagesFrom + messages.length`. */
    moreMessages: z.boolean().optional(),
    pending: z.array(PendingApproval),
    /** More calls wait than `pending` holds (each cut `shortened`): `pendingApprovals` lists more, `pendingApproval` one whole. */
    morePending: z.boolean().optional(),
    decisions: z.array(AuditEntry),
    /** More audit entries follow `decisions` than fit in one answer: ask again from the last `seq`. */
    moreDecisions: z.boolean().optional(),
    /** Entries before `decisions[0]` (its `seq` minus one). */
    decisionsFrom: z.number().int(),
    policyOutcomes: z.array(PolicyOutcome),
    usage: Usage,
    result: AgentResult.optional(),
    error: z.string().optional(),
    /** Earlier runs (Temporal run ids) of this workflow id (continue-as-new), newest last. */
    previousRunIds: z.array(z.string()),
    /** Session runs: user messages queued while a turn runs. */
    queuedMessages: z.number().int(),
    /** The latest model calls (at most 100): the model each used, and what hooks and breakpoints did. */
    modelCalls: z.array(ModelCallEntry).optional(),
    /**
     * The offset the run's stream will give its next item: subscribe from here to follow what happens after this
     * state. Absent when the run cannot answer (`problem`).
     */
    streamOffset: z.number().int().nonnegative().optional(),
    /**
     * The run was due to continue as new, and its state did not fit in the next run's input even after shedding
     * (README, "Limits"): it goes on in this run, and tries again at its next step. The last such attempt.
     */
    carryUnfit: z.object({ bytes: z.number().int(), limit: z.number().int(), historyLength: z.number().int() }).optional(),
    /** Set by clients (never by the run) when the run is stuck; the rest then comes from visibility, not the run. */
    problem: RunProblem.optional(),
    /** Set by clients (never by the run): its activities that failed and are being tried again. */
    retrying: z.array(RetryingActivity).optional(),
  }),
);

/**
 * Optional argument of the `runState` query: only what is new. `messagesFrom` counts all messages the run ever
 * held; `decisionsFrom` is the `seq` of the last audit entry already seen.
 */
/** Strict: a misspelled `messageFrom` would otherwise answer with everything, as if it had not been asked. */
export const RunStateQueryOptions = builtOnce('schemas/run-state.RunStateQueryOptions', () =>
  z.strictObject({
    messagesFrom: z.number().int().min(0).optional(),
    decisionsFrom: z.number().int().min(0).optional(),
  }),
);

export type PolicyOutcome = z.infer<typeof PolicyOutcome>;
export type Usage = z.infer<typeof Usage>;
export type AgentResult = z.infer<typeof AgentResult>;
export type RunState = z.infer<typeof RunState>;
export type RunStateQueryOptions = z.infer<typeof RunStateQueryOptions>;
