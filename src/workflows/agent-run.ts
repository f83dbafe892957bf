/**
 * The state of one run: transcript, open step, decisions, audit log, session and sub-agent bookkeeping. The loop in
 * `agent-workflow.ts` drives it, `run-decisions.ts` changes it by decision, `run-visibility.ts` and
 * `run-notifications.ts` tell the outside. Deterministic: time comes from the workflow clock, nothing else.
 */
import { isCancellation, patched, upsertMemo, workflowInfo } from '@temporalio/workflow';
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/common';
import { HitlError } from '../errors/hitl-error.js';
import { argsHash } from '../policy/args-hash.js';
import { classifyCall } from '../policy/classify-call.js';
import type { AgentSnapshot } from '../schemas/agent-snapshot.js';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { ApprovalPolicy } from '../schemas/approval-policy.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { CallRecord } from '../schemas/call-record.js';
import { CARRIED_STATE_VERSION, type CarriedState, type DecidedSummary, type StickyDecision } from '../schemas/carried-state.js';
import type { ChatMessage, ToolCall } from '../schemas/chat-message.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { AgentResult, PolicyOutcome, RunState, RunStateQueryOptions, RunStatus, Usage } from '../schemas/run-state.js';
import { toolSpecs } from '../tools/registry.js';
import { parseToolArguments } from '../tools/tool-arguments.js';
import { describedByTool } from './approval-description.js';
import type { PlanContext } from './decision-plan.js';
import { applyStanding } from './run-decisions.js';
import { RunNotifications } from './run-notifications.js';
import { RunVisibility } from './run-visibility.js';
import { workflowIsoNow, workflowNow } from './workflow-clock.js';

/** Bounds on what a long session keeps in memory and carries across continue-as-new. */
const KEEP_AUDIT = 1000;
const KEEP_DECIDED = 2000;
const KEEP_OUTCOMES = 500;

export class AgentRun {
  input!: AgentWorkflowInput;
  snapshot?: AgentSnapshot;
  policy!: ApprovalPolicy;
  maxSteps = 0;
  status: RunStatus = 'running';
  /** Model calls in the whole run; `turnSteps` counts this turn's (maxSteps applies per turn). */
  step = 0;
  turnSteps = 0;
  /** The structured-output correction was used in this turn. */
  corrected = false;
  messages: ChatMessage[] = [];
  usage: Usage = { promptTokens: 0, completionTokens: 0 };
  /** Calls of the open step, in the order the model asked for them. */
  calls: CallRecord[] = [];
  decided = new Map<string, DecidedSummary>();
  sticky = new Map<string, StickyDecision>();
  audit: AuditEntry[] = [];
  auditDropped = 0;
  /** Messages compacted away by continue-as-new (net of the summary that replaced them). */
  messagesDropped = 0;
  policyOutcomes: PolicyOutcome[] = [];
  /** Session runs: user messages waiting for the next turn, and whether `end` was asked for. */
  inbox: string[] = [];
  endRequested = false;
  idleDeadline?: string;
  lastOutput?: string;
  previousRunIds: string[] = [];
  /** Pending calls of sub-agent runs (and their tools), mirrored from their `hitl.childApprovals` signals. */
  childApprovals = new Map<string, { seq: number; pending: PendingApproval[]; tools: string[] }>();
  /** Sub-agent calls this run passed a decision on, hidden until the sub-agent reports again: `<workflowId>/<id>`. */
  readonly forwarded = new Map<string, DecidedSummary>();
  result?: AgentResult;
  error?: string;
  /** What the loop is doing, for the UI's current details. */
  activity = 'starting';
  readonly notifications = new RunNotifications(this);
  private readonly visibility = new RunVisibility(this);

  get agent(): string {
    return this.snapshot?.name ?? this.input?.agent ?? '';
  }

  begin(input: AgentWorkflowInput, snapshot: AgentSnapshot, policy: ApprovalPolicy): void {
    this.input = input;
    this.snapshot = snapshot;
    this.policy = policy;
    this.maxSteps = input.maxSteps ?? snapshot.maxSteps;
    this.messages = [
      { role: 'system', content: snapshot.instructions },
      { role: 'user', content: input.prompt },
    ];
    // Lists (approval inboxes, the Temporal UI) show who asked what without querying every run.
    upsertMemo({ prompt: truncate(input.prompt, 500), ...(input.requestedBy && { requestedBy: input.requestedBy }) });
    this.publish('running the agent');
  }

  /** Picks up where the previous run of this workflow id continued as new. */
  resume(input: AgentWorkflowInput, carry: CarriedState): void {
    this.input = input;
    this.snapshot = carry.snapshot;
    this.policy = carry.policy;
    this.maxSteps = carry.maxSteps;
    this.status = carry.status;
    this.step = carry.step;
    this.turnSteps = carry.turnSteps;
    this.corrected = carry.corrected;
    this.messages = carry.messages;
    this.usage = carry.usage;
    this.calls = carry.calls;
    this.decided = new Map(carry.decided);
    this.sticky = new Map(carry.sticky);
    this.audit = carry.audit;
    this.auditDropped = carry.auditDropped;
    this.messagesDropped = carry.messagesDropped;
    this.policyOutcomes = carry.policyOutcomes;
    this.inbox = carry.inbox;
    this.endRequested = carry.endRequested;
    this.idleDeadline = carry.idleDeadline;
    this.lastOutput = carry.lastOutput;
    this.notifications.seq = carry.notificationSeq;
    this.visibility.parentReport = { seq: carry.parentReportSeq, key: '', auditSeq: carry.auditDropped + carry.audit.length };
    this.previousRunIds = carry.previousRunIds;
    this.publish('resumed after continue-as-new');
  }

  /** Everything the next run needs; only called when no tool or sub-agent is running. */
  carry(messages: ChatMessage[]): CarriedState {
    const messagesDropped = this.messagesDropped + (this.messages.length - messages.length);
    const auditKept = this.audit.slice(-KEEP_AUDIT);
    return {
      version: CARRIED_STATE_VERSION,
      snapshot: this.snapshot!,
      policy: this.policy,
      maxSteps: this.maxSteps,
      status: this.status,
      step: this.step,
      turnSteps: this.turnSteps,
      corrected: this.corrected,
      messages,
      messagesDropped,
      usage: this.usage,
      calls: this.calls,
      decided: [...this.decided].slice(-KEEP_DECIDED),
      sticky: [...this.sticky],
      audit: auditKept,
      auditDropped: this.auditDropped + (this.audit.length - auditKept.length),
      policyOutcomes: this.policyOutcomes.slice(-KEEP_OUTCOMES),
      inbox: this.inbox,
      endRequested: this.endRequested,
      ...(this.idleDeadline && { idleDeadline: this.idleDeadline }),
      ...(this.lastOutput !== undefined && { lastOutput: this.lastOutput }),
      notificationSeq: this.notifications.seq,
      parentReportSeq: this.visibility.parentReport.seq,
      previousRunIds: [...this.previousRunIds, workflowInfo().runId].slice(-50),
    };
  }

  // ---- reading -------------------------------------------------------------------------------------------

  /** This run's pending calls, then those of its sub-agents (marked with the sub-agent's workflow id). */
  pendingApprovals(): PendingApproval[] {
    const own = this.calls.flatMap((c) => (c.pending && !c.resolution ? [c.pending] : []));
    const children = [...this.childApprovals].flatMap(([workflowId, { pending }]) =>
      pending.flatMap((p) =>
        this.forwarded.has(`${p.workflowId ?? workflowId}/${p.id}`) ? [] : [p.workflowId ? p : { ...p, workflowId }],
      ),
    );
    return [...own, ...children];
  }

  state(options: RunStateQueryOptions = {}): RunState {
    // Both offsets count everything the run ever held, so they stay valid after old entries are dropped.
    const skip = Math.min(Math.max(0, (options.messagesFrom ?? 0) - this.messagesDropped), this.messages.length);
    const decisions = this.audit.filter((e) => e.seq > (options.decisionsFrom ?? 0));
    return {
      status: this.status,
      step: this.step,
      agent: this.agent,
      prompt: this.input?.prompt ?? '',
      requestedBy: this.input?.requestedBy,
      messages: this.messages.slice(skip),
      messagesFrom: skip + this.messagesDropped,
      pending: this.pendingApprovals(),
      decisions,
      decisionsFrom: (decisions[0]?.seq ?? this.auditDropped + this.audit.length + 1) - 1,
      policyOutcomes: this.policyOutcomes,
      usage: this.usage,
      result: this.result,
      error: this.error,
      previousRunIds: this.previousRunIds,
      queuedMessages: this.inbox.length,
    };
  }

  planContext(): PlanContext {
    const decided = new Map(this.decided);
    for (const [key, summary] of this.forwarded) decided.set(key.slice(key.lastIndexOf('/') + 1), summary);
    return {
      pending: this.pendingApprovals(),
      decided,
      available: this.snapshot?.tools ?? [],
      specs: toolSpecs,
      ...(this.policy && { policy: this.policy }),
      subAgentTools: new Map([...this.childApprovals].map(([workflowId, { tools }]) => [workflowId, tools])),
    };
  }

  /** No tool or sub-agent is running and no decided call is about to start one: safe to continue as new. */
  isPausable(): boolean {
    return this.calls.every((c) => c.status === 'done' || (c.status === 'waiting' && !c.resolution));
  }

  // ---- a step's tool calls -------------------------------------------------------------------------------

  /** Classifies the model's calls; gated ones become pending (or are settled at once by a standing decision). */
  openStep(toolCalls: ToolCall[]): CallRecord[] {
    const requestedAt = workflowNow();
    this.calls = toolCalls.map((call) => {
      const record: CallRecord = {
        id: call.id,
        toolName: call.function.name,
        rawArgs: call.function.arguments,
        step: this.step,
        rule: '',
        status: 'waiting',
      };
      const parsed = parseToolArguments(record.toolName, record.rawArgs, toolSpecs, this.snapshot!.tools);
      if (!parsed.ok) {
        // Invalid calls never reach a human: the tool activity answers them with the error.
        record.rule = `not gated: ${parsed.problem.replace('_', ' ')}`;
      } else {
        record.args = parsed.args;
        const classification = classifyCall(this.policy, record.toolName, parsed.args);
        record.rule = classification.rule;
        if (classification.gated) {
          record.gate = classification.settings;
          if (!describedByTool(this.snapshot!, record)) this.announce(record, classification.settings.description, requestedAt);
        }
      }
      this.policyOutcomes.push({ id: record.id, toolName: record.toolName, step: this.step, gated: !!record.gate, rule: record.rule });
      if (this.policyOutcomes.length > KEEP_OUTCOMES * 2) this.policyOutcomes = this.policyOutcomes.slice(-KEEP_OUTCOMES);
      return record;
    });
    for (const record of this.calls) {
      const standing = record.gate && this.sticky.get(record.toolName);
      if (standing) applyStanding(this, record, standing);
      else if (record.pending) this.notifications.send('approval.requested', record.pending);
    }
    this.publish('running tools');
    return this.calls;
  }

  /** Makes a gated call pending: visible to approvers, with its deadline counted from now. */
  announce(record: CallRecord, description: string, at = workflowNow()): void {
    const gate = record.gate!;
    record.pending = {
      id: record.id,
      toolName: record.toolName,
      args: record.args!,
      argsHash: argsHash(record.args!),
      description,
      allowedDecisions: gate.allowedDecisions,
      requestedAt: new Date(at).toISOString(),
      deadline: new Date(at + gate.timeoutMs).toISOString(),
      step: record.step,
      ...(gate.approvers && { approvers: gate.approvers }),
      ...(this.policy.fourEyes && this.input.requestedBy && { excludedApprovers: [this.input.requestedBy] }),
      onTimeout: gate.onTimeout,
      rule: record.rule,
      ...(patched(DECISION_CHECKS_V2_PATCH) && { checks: 2 }),
    };
  }

  /** Appends one tool message per call, in the order the model asked for them, and closes the step. */
  closeStep(): void {
    for (const record of this.calls) this.messages.push({ role: 'tool', tool_call_id: record.id, content: record.result ?? '' });
    this.calls = [];
    this.publish('running the agent');
  }

  // ---- bookkeeping for decisions (see run-decisions.ts) -----------------------------------------------

  markDecided(id: string, summary: DecidedSummary): void {
    this.decided.set(id, summary);
    if (this.decided.size > KEEP_DECIDED * 2) this.decided = new Map([...this.decided].slice(-KEEP_DECIDED));
  }

  addAudit(entry: Omit<AuditEntry, 'seq' | 'at'>): AuditEntry {
    const full: AuditEntry = { seq: this.auditDropped + this.audit.length + 1, at: workflowIsoNow(), ...entry };
    this.audit.push(full);
    if (this.audit.length > KEEP_AUDIT * 2) {
      this.auditDropped += this.audit.length - KEEP_AUDIT;
      this.audit = this.audit.slice(-KEEP_AUDIT);
    }
    return full;
  }

  // ---- the end -------------------------------------------------------------------------------------------

  finish(status: AgentResult['status'], output: string, structured?: unknown): AgentResult {
    this.status = status === 'max_steps' ? 'max_steps' : 'completed';
    this.result = {
      status,
      output,
      ...(structured !== undefined && { structured }),
      decisions: this.audit,
      steps: this.step,
      usage: this.usage,
    };
    this.publish('finished');
    return this.result;
  }

  /** Marks the run failed or canceled and returns what the workflow should throw. */
  fail(err: unknown): unknown {
    this.calls = this.calls.filter((c) => !c.pending || c.resolution);
    this.childApprovals.clear();
    if (isCancellation(err)) {
      this.status = 'canceled';
      this.publish('canceled');
      return err;
    }
    const failure = toRunFailure(err);
    this.status = 'failed';
    this.error = failure instanceof Error ? failure.message : String(failure);
    this.publish('failed');
    return failure;
  }

  // ---- visibility ----------------------------------------------------------------------------------------

  publish(activity: string): void {
    this.activity = activity;
    const pending = this.pendingApprovals();
    if (this.status === 'running' || this.status === 'awaiting_approval') {
      this.status = pending.length ? 'awaiting_approval' : 'running';
    }
    if (this.snapshot) this.visibility.publish(pending, activity);
  }
}

/** Added after runs were already paused: see README, "Changing workflow code". */
const DECISION_CHECKS_V2_PATCH = 'decision-checks-v2';

/**
 * Our errors and the non-retryable causes of activity failures become ApplicationFailures, which fail the run
 * with a message a person can act on. Anything else is a bug: rethrown as is, it fails the workflow task, which
 * Temporal retries until a fixed worker is deployed.
 */
function toRunFailure(err: unknown): unknown {
  if (err instanceof HitlError) return err.toFailure();
  if ((err instanceof ActivityFailure || err instanceof ChildWorkflowFailure) && err.cause instanceof ApplicationFailure) {
    const cause = err.cause;
    return ApplicationFailure.create({
      type: cause.type ?? undefined,
      message: cause.message,
      details: cause.details ?? undefined,
      nonRetryable: true,
      cause: err,
    });
  }
  return err;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
