/**
 * What a run hands to its next run when it continues as new: everything needed to go on exactly where it was,
 * including calls still waiting for a decision (with their original deadlines) and standing decisions.
 */
import { z } from 'zod';
import { AgentSnapshot } from './agent-snapshot.js';
import { ApprovalPolicy } from './approval-policy.js';
import { AuditEntry } from './audit-entry.js';
import { CallRecord } from './call-record.js';
import { ChatMessage } from './chat-message.js';
import { PolicyOutcome, RunStatus, Usage } from './run-state.js';

export const DecidedSummary = z.object({ type: z.string(), approver: z.string().optional() });
export const StickyDecision = z.object({
  type: z.enum(['approve', 'reject']),
  approver: z.string().optional(),
  message: z.string().optional(),
});

export const CARRIED_STATE_VERSION = 1;

export const CarriedState = z.object({
  version: z.literal(CARRIED_STATE_VERSION),
  snapshot: AgentSnapshot,
  policy: ApprovalPolicy,
  maxSteps: z.number().int(),
  status: RunStatus,
  step: z.number().int(),
  turnSteps: z.number().int(),
  corrected: z.boolean(),
  messages: z.array(ChatMessage),
  /** Messages compacted away in earlier runs, so transcript offsets keep counting from the first message. */
  messagesDropped: z.number().int().default(0),
  usage: Usage,
  calls: z.array(CallRecord),
  decided: z.array(z.tuple([z.string(), DecidedSummary])),
  sticky: z.array(z.tuple([z.string(), StickyDecision])),
  audit: z.array(AuditEntry),
  /** Audit entries left behind in earlier runs (see `previousRunIds`). */
  auditDropped: z.number().int(),
  policyOutcomes: z.array(PolicyOutcome),
  inbox: z.array(z.string()),
  endRequested: z.boolean(),
  idleDeadline: z.iso.datetime().optional(),
  lastOutput: z.string().optional(),
  notificationSeq: z.number().int(),
  /** Sub-agents: the sequence number of the last report to the parent (the parent ignores older ones). */
  parentReportSeq: z.number().int().default(0),
  /** Earlier runs of this workflow id, newest last: where older history and audit entries live. */
  previousRunIds: z.array(z.string()),
});

export type DecidedSummary = z.infer<typeof DecidedSummary>;
export type StickyDecision = z.infer<typeof StickyDecision>;
export type CarriedState = z.infer<typeof CarriedState>;
