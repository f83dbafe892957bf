/**
 * The state of one run and the transitions on it. The loop in `agent-workflow.ts` drives it; handlers read and
 * decide through it. Deterministic: time comes from the workflow clock, nothing else from outside.
 */
import {
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  patched,
  setCurrentDetails,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/common';
import ms from 'ms';
import { ApprovalTimeoutError } from '../errors/approval-timeout-error.js';
import type { DecisionRefusedError } from '../errors/decision-refused-error.js';
import { HitlError } from '../errors/hitl-error.js';
import { argsHash } from '../policy/args-hash.js';
import { classifyCall } from '../policy/classify-call.js';
import type { AgentSnapshot } from '../schemas/agent-snapshot.js';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { ApprovalPolicy } from '../schemas/approval-policy.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { CallRecord, DecidedVia, Resolution } from '../schemas/call-record.js';
import { CARRIED_STATE_VERSION, type CarriedState, type DecidedSummary, type StickyDecision } from '../schemas/carried-state.js';
import type { ChatMessage, ToolCall } from '../schemas/chat-message.js';
import type { AppliedDecision } from '../schemas/decision.js';
import type { NotificationEvent } from '../schemas/notification-event.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { AgentResult, PolicyOutcome, RunState, RunStateQueryOptions, RunStatus, Usage } from '../schemas/run-state.js';
import { toolSpecs } from '../tools/registry.js';
import { parseToolArguments } from '../tools/tool-arguments.js';
import { notifyActivities } from './activities.js';
import { describedByTool } from './approval-description.js';
import { currentDetails } from './current-details.js';
import type { PlanContext, PlannedDecision } from './decision-plan.js';
import { childApprovalsSignal, decisionSignal, type ChildApprovals } from './messages.js';
import { SearchAttributePublisher } from './search-attributes.js';
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
  private forwarded = new Map<string, DecidedSummary>();
  result?: AgentResult;
  error?: string;
  /** What the loop is doing, for the UI's current details. */
  activity = 'starting';
  private notificationSeq = 0;
  private notificationsInFlight = 0;
  private memoPendingKey = '[]';
  private sentToParent = { seq: 0, key: '', auditSeq: 0 };
  private readonly searchAttributes = new SearchAttributePublisher();

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
    this.notificationSeq = carry.notificationSeq;
    this.sentToParent = { seq: carry.parentReportSeq, key: '', auditSeq: carry.auditDropped + carry.audit.length };
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
      notificationSeq: this.notificationSeq,
      parentReportSeq: this.sentToParent.seq,
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
      if (standing) this.applyStanding(record, standing);
      else if (record.pending) this.notify('approval.requested', record.pending);
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

  // ---- decisions -----------------------------------------------------------------------------------------

  /**
   * Applies a checked plan. Calls of sub-agents are forwarded to the run that owns them; `always` decisions
   * also settle other pending calls of the same tool.
   */
  applyPlan(decisions: PlannedDecision[], via: 'update' | 'signal', who: { approver?: string; groups?: string[] } = {}): AppliedDecision[] {
    const applied = decisions.map((planned): AppliedDecision => {
      const { decision, call } = planned;
      const approver = planned.approver;
      const base = {
        id: call.id,
        type: decision.type,
        toolName: planned.toolName,
        argsHash: planned.argsHash,
        ...(approver && { approver }),
      };
      if (call.workflowId) {
        this.forward(call.workflowId, planned, via, who);
        return { ...base, forwardedTo: call.workflowId };
      }
      const record = this.calls.find((c) => c.id === call.id)!;
      const resolution: Resolution =
        decision.type === 'edit'
          ? { kind: 'edit', via, approver, toolName: planned.toolName, args: planned.args }
          : decision.type === 'respond'
            ? { kind: 'respond', via, approver, message: decision.message! }
            : decision.type === 'reject'
              ? { kind: 'reject', via, approver, message: decision.message }
              : { kind: 'approve', via, approver };
      this.settle(record, resolution, { message: decision.message, always: decision.always });
      if (decision.always && (decision.type === 'approve' || decision.type === 'reject')) {
        this.sticky.set(record.toolName, { type: decision.type, approver, message: decision.message });
      }
      return base;
    });
    for (const record of this.calls) {
      const standing = this.sticky.get(record.toolName);
      if (standing && record.pending && !record.resolution) this.applyStanding(record, standing);
    }
    this.publish(this.activity);
    return applied;
  }

  /**
   * A decision for a sub-agent's call goes to that run, which checks it again and records it. The call stays
   * hidden here until the sub-agent reports what it still waits for (which also brings it back if refused there).
   */
  private forward(
    workflowId: string,
    planned: PlannedDecision,
    via: 'update' | 'signal',
    who: { approver?: string; groups?: string[] },
  ): void {
    this.forwarded.set(`${workflowId}/${planned.call.id}`, {
      type: planned.decision.type,
      ...(planned.approver && { approver: planned.approver }),
    });
    this.pushAudit({
      via,
      outcome: 'applied',
      type: planned.decision.type,
      id: planned.call.id,
      toolName: planned.call.toolName,
      ...(planned.approver && { approver: planned.approver }),
      forwardedTo: workflowId,
    });
    const decision = { ...planned.decision, id: planned.call.id };
    getExternalWorkflowHandle(workflowId)
      .signal(decisionSignal, {
        decisions: [decision],
        ...(who.approver && { approver: who.approver }),
        ...(who.groups && { groups: who.groups }),
      })
      .catch((err) => log.warn('could not forward a decision to a sub-agent', { workflowId, error: String(err) }));
  }

  /** Records a refused input in the audit log; nothing else changes. */
  recordRefusal(error: DecisionRefusedError, via: 'update' | 'signal', raw: unknown): void {
    const input = raw as { decisions?: { id?: string; type?: string }[]; approver?: string } | undefined;
    const first = Array.isArray(input?.decisions) ? input.decisions[0] : undefined;
    this.pushAudit({
      via,
      outcome: 'refused',
      ...(typeof first?.id === 'string' && { id: first.id }),
      ...(typeof input?.approver === 'string' && { approver: input.approver }),
      refusal: { code: error.code, message: error.message },
      input: truncate(safeStringify(raw), 2000),
    });
    log.warn('decision refused', { code: error.code, via });
    // A parent that passed this decision on learns it did not take.
    this.publish(this.activity);
  }

  /** The deadline passed with no decision: apply the call's `onTimeout` (`fail` throws, failing the run). */
  timeOut(record: CallRecord): void {
    const onTimeout = record.gate!.onTimeout;
    this.settle(record, onTimeout === 'approve' ? { kind: 'approve', via: 'timeout' } : { kind: 'timeout' }, {
      message: `no decision within the timeout; onTimeout: ${onTimeout}`,
    });
    this.publish(this.activity);
    if (onTimeout === 'fail') throw new ApprovalTimeoutError(record.toolName, record.id, ms(record.gate!.timeoutMs));
  }

  /**
   * A sub-agent reports what it waits for, and which calls it received decisions for since its last report. A
   * call this run forwarded stays hidden until the sub-agent has answered it (taken: gone; refused: back).
   */
  mirrorChild(report: ChildApprovals): void {
    const { workflowId, seq, pending, tools, answered = [] } = report;
    const known = this.childApprovals.get(workflowId);
    if (known && known.seq >= seq) return; // an older report arriving late
    const stillPending = new Set(pending.map((p) => p.id));
    for (const key of [...this.forwarded.keys()].filter((k) => k.startsWith(`${workflowId}/`))) {
      const id = key.slice(workflowId.length + 1);
      if (answered.includes(id) || !stillPending.has(id)) this.forwarded.delete(key);
    }
    if (pending.length) this.childApprovals.set(workflowId, { seq, pending, tools });
    else this.childApprovals.delete(workflowId);
    this.publish(this.activity);
  }

  /** Settles a call by an earlier `always` decision for its tool. */
  applyStanding(record: CallRecord, standing: StickyDecision): void {
    const resolution: Resolution =
      standing.type === 'approve'
        ? { kind: 'approve', via: 'sticky', approver: standing.approver }
        : { kind: 'reject', via: 'sticky', approver: standing.approver, message: standing.message };
    this.settle(record, resolution, { message: `standing "always ${standing.type}"` });
  }

  private settle(record: CallRecord, resolution: Resolution, extra: { message?: string; always?: boolean }): void {
    record.resolution = resolution;
    const via: DecidedVia = resolution.kind === 'timeout' ? 'timeout' : resolution.via;
    const type = via === 'timeout' ? 'timeout' : (resolution.kind as Exclude<Resolution['kind'], 'timeout'>);
    const approver = resolution.kind === 'timeout' ? undefined : resolution.approver;
    this.decided.set(record.id, { type, ...(approver && { approver }) });
    if (this.decided.size > KEEP_DECIDED * 2) this.decided = new Map([...this.decided].slice(-KEEP_DECIDED));
    const entry = this.pushAudit({
      via,
      outcome: 'applied',
      type,
      id: record.id,
      toolName: record.toolName,
      ...(approver && { approver }),
      argsBefore: record.args,
      ...(resolution.kind === 'edit' && { argsAfter: resolution.args }),
      ...(resolution.kind === 'edit' && resolution.toolName !== record.toolName && { toolNameAfter: resolution.toolName }),
      ...(extra.message !== undefined && { message: extra.message }),
      ...(extra.always && { always: true }),
    });
    if (record.pending) this.notify(type === 'timeout' ? 'approval.timed_out' : 'approval.decided', record.pending, entry);
  }

  private pushAudit(entry: Omit<AuditEntry, 'seq' | 'at'>): AuditEntry {
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

  /**
   * Gives notifications still in flight a few seconds (a first attempt and a retry) before the run closes: once it
   * closes, their activities never start. The result is already decided and visible; only the close waits.
   */
  async flushNotifications(): Promise<void> {
    if (this.notificationsInFlight > 0 && patched(FLUSH_NOTIFICATIONS_PATCH)) {
      await condition(() => this.notificationsInFlight === 0, '5s', { summary: 'last notifications before closing' });
    }
  }

  // ---- visibility ----------------------------------------------------------------------------------------

  publish(activity: string): void {
    this.activity = activity;
    const pending = this.pendingApprovals();
    if (this.status === 'running' || this.status === 'awaiting_approval') {
      this.status = pending.length ? 'awaiting_approval' : 'running';
    }
    if (!this.snapshot) return;
    this.searchAttributes.publish({ agent: this.agent, status: HITL_STATUS[this.status], pending });
    this.publishPendingMemo(pending);
    setCurrentDetails(currentDetails(this.step, this.maxSteps, pending.length ? 'waiting for approval' : activity, pending));
    this.tellParent(pending);
  }

  /**
   * What waits, in the memo too: lists across runs read it from visibility instead of querying every run (a
   * sub-agent's calls are listed through its parent). Too large a list is left out; lists then ask the run.
   */
  private publishPendingMemo(pending: PendingApproval[]): void {
    if (workflowInfo().parent) return;
    const text = JSON.stringify(pending);
    const value = text.length <= MEMO_PENDING_LIMIT ? pending : null;
    const key = value ? text : 'too-large';
    if (key === this.memoPendingKey || !patched(PENDING_IN_MEMO_PATCH)) return;
    this.memoPendingKey = key;
    upsertMemo({ pendingApprovals: value ?? { tooLarge: true } });
  }

  /** A sub-agent keeps its parent's view of what waits current, so decisions can be sent to the parent. */
  private tellParent(pending: PendingApproval[]): void {
    const parent = workflowInfo().parent;
    if (!parent) return;
    // Any new audit entry (a decision taken or refused) sends a report, so a forwarded decision never goes unanswered.
    const auditSeq = this.auditDropped + this.audit.length;
    const pendingKey = pending.map((p) => `${p.workflowId ?? ''}/${p.id}`).join(',');
    const key =
      pendingKey === this.sentToParent.key.split('#')[0] && !patched(REPORT_EVERY_ANSWER_PATCH)
        ? this.sentToParent.key
        : `${pendingKey}#${auditSeq}`;
    if (key === this.sentToParent.key) return;
    const answered = this.audit.filter((e) => e.seq > this.sentToParent.auditSeq && e.id).map((e) => e.id!);
    this.sentToParent = { seq: this.sentToParent.seq + 1, key, auditSeq };
    const report: ChildApprovals = {
      workflowId: workflowInfo().workflowId,
      seq: this.sentToParent.seq,
      pending,
      tools: this.snapshot!.tools,
      answered,
    };
    getExternalWorkflowHandle(parent.workflowId)
      .signal(childApprovalsSignal, report)
      .catch((err) => log.warn('could not tell the parent run what waits', { error: String(err) }));
  }

  /** Fire and forget: a webhook outage never holds up or fails the run. */
  notify(type: NotificationEvent['type'], approval: PendingApproval, decision?: AuditEntry): void {
    if (!this.snapshot?.notify) return;
    const { workflowId, runId } = workflowInfo();
    const event: NotificationEvent = {
      id: `${workflowId}:${runId}:${++this.notificationSeq}`,
      type,
      workflowId,
      runId,
      agent: this.agent,
      at: workflowIsoNow(),
      approval,
      ...(decision && { decision }),
    };
    this.notificationsInFlight++;
    notifyActivities.notify
      .executeWithOptions(
        {
          startToCloseTimeout: '30s',
          scheduleToCloseTimeout: '10m',
          retry: { initialInterval: '2s', maximumAttempts: 6 },
          summary: `notify ${type}`,
        },
        [event],
      )
      .catch((err) => log.warn('notification not delivered', { type, error: String(err) }))
      .finally(() => this.notificationsInFlight--);
  }
}

/** Changes made after runs were already paused: see README, "Changing workflow code". */
const FLUSH_NOTIFICATIONS_PATCH = 'flush-notifications-before-close';
const DECISION_CHECKS_V2_PATCH = 'decision-checks-v2';
const PENDING_IN_MEMO_PATCH = 'pending-approvals-in-memo';
/** Bytes of pending approvals kept in the memo; beyond that, lists ask the run itself. */
const MEMO_PENDING_LIMIT = 16_000;
const REPORT_EVERY_ANSWER_PATCH = 'sub-agents-report-every-answer';

const HITL_STATUS = {
  running: 'Running',
  awaiting_approval: 'AwaitingApproval',
  awaiting_message: 'AwaitingMessage',
  completed: 'Completed',
  max_steps: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
} as const;

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

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
