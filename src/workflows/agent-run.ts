/**
 * The one owner of a run's state. Every change goes through a method here; the parts (transcript, calls, audit log,
 * session queue, sub-agent mirror, the events watchers read) keep their own fields private too. Status is derived,
 * never stored. What the outside sees (visibility, metrics, events) is refreshed in one place, `refresh()`, which the
 * workflow calls after each handler and at each wait of the loop. Continue-as-new carries exactly `CarriedState`
 * (one schema), built by `carry()`, read by `resume()`.
 *
 * A class with private fields rather than a reducer over events: the loop awaits activities and timers between
 * changes, and methods named for what happens (`startTurn`, `finish`) read better there than dispatched events.
 */
import { isCancellation } from '@temporalio/workflow';
import type { RunStatus } from '../contract/run-status.js';
import type { AgentSnapshot } from '../schemas/agent-snapshot.js';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { ApprovalPolicy } from '../schemas/approval-policy.js';
import { CARRIED_STATE_VERSION, type AlwaysDecision, type CarriedState } from '../schemas/carried-state.js';
import type { AssistantMessage, ChatMessage } from '../schemas/chat-message.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { AgentResult, Usage } from '../schemas/run-state.js';
import { AuditLog } from './audit-log.js';
import { Breakpoints } from './breakpoints.js';
import { CallBook } from './call-book.js';
import { chainMarks } from './carry-origin.js';
import { lastUnfitCarry } from './carry-unfit.js';
import { ModelCallLog } from './model-call-log.js';
import type { RunEvents } from './run-events.js';
import { RunNotifications } from './run-notifications.js';
import { RunVisibility } from './run-visibility.js';
import { SentMessages } from './sent-messages.js';
import { SessionQueue } from './session-queue.js';
import { toRunFailure } from './run-failure.js';
import { SubAgentMirror } from './sub-agent-mirror.js';
import { toolResultMessages } from './tool-messages.js';
import { Transcript } from './transcript.js';
import { UsedTokens } from './used-tokens.js';

export class AgentRun {
  // The parts: each keeps its own fields private and changes only through its methods.
  readonly transcript = new Transcript();
  readonly book = new CallBook();
  readonly audit = new AuditLog();
  readonly session = new SessionQueue();
  readonly children = new SubAgentMirror();
  readonly notifications = new RunNotifications();
  readonly usedTokens = new UsedTokens();
  readonly modelCalls = new ModelCallLog();
  /** Not carried: a new run's first model call sends its messages whole. */
  readonly sentMessages = new SentMessages();
  readonly breakpoints = new Breakpoints();
  readonly visibility = new RunVisibility(() => this.refresh());

  /** What the run started with: fixed once it has started (and carried unchanged across continue-as-new). */
  #setup?: { input: AgentWorkflowInput; snapshot: AgentSnapshot; policy: ApprovalPolicy; maxSteps: number };
  /** Model calls in the whole run; `#turnSteps` counts this turn's (maxSteps applies per turn). */
  #step = 0;
  #turnSteps = 0;
  /** The structured-output correction was used in this turn. */
  #corrected = false;
  #usage: Usage = { promptTokens: 0, completionTokens: 0 };
  #always = new Map<string, AlwaysDecision>();
  #awaitingMessage = false;
  #lastOutput?: string;
  #previousRunIds: string[] = [];
  #result?: AgentResult;
  #failure?: { status: 'Failed' | 'Canceled'; error?: string };
  /** What the loop is doing, in words, for the Temporal UI. */
  #phase = 'starting';
  /** The start input as given, before the agent is resolved (for handlers that run that early). */
  #earlyInput?: AgentWorkflowInput;

  /** @param events what watchers are told, on the run's stream (opened before anything else, as its handlers must be) */
  constructor(readonly events: RunEvents) {}

  get started(): boolean {
    return this.#setup !== undefined;
  }
  get input(): AgentWorkflowInput {
    return (this.#setup?.input ?? this.#earlyInput)!;
  }
  get snapshot(): AgentSnapshot {
    return this.#setup!.snapshot;
  }
  get policy(): ApprovalPolicy {
    return this.#setup!.policy;
  }
  get maxSteps(): number {
    return this.#setup?.maxSteps ?? 0;
  }
  get agent(): string {
    return this.#setup?.snapshot.name ?? this.#earlyInput?.agent ?? '';
  }
  get step(): number {
    return this.#step;
  }
  get turnSteps(): number {
    return this.#turnSteps;
  }
  get corrected(): boolean {
    return this.#corrected;
  }
  get usage(): Usage {
    return this.#usage;
  }
  get lastOutput(): string | undefined {
    return this.#lastOutput;
  }
  get previousRunIds(): readonly string[] {
    return this.#previousRunIds;
  }
  get result(): AgentResult | undefined {
    return this.#result;
  }
  get error(): string | undefined {
    return this.#failure?.error;
  }
  get awaitingMessage(): boolean {
    return this.#awaitingMessage;
  }

  get status(): RunStatus {
    if (this.#failure) return this.#failure.status;
    if (this.#result) return this.#result.status;
    if (this.#awaitingMessage) return 'AwaitingMessage';
    return this.pending().length ? 'AwaitingApproval' : 'Running';
  }

  /** This run's pending calls or breakpoint, then those of its sub-agents (marked with the sub-agent's workflow id). */
  pending(): PendingApproval[] {
    return [...this.book.pending(), ...this.breakpoints.pending(), ...this.children.pending()];
  }

  alwaysFor(toolName: string): AlwaysDecision | undefined {
    return this.#always.get(toolName);
  }

  // ---- the start and continue-as-new --------------------------------------------------------------------

  /** The start input, once parsed: handlers that run before the agent is resolved can read it. */
  accept(input: AgentWorkflowInput): void {
    this.#earlyInput = input;
  }

  begin(input: AgentWorkflowInput, snapshot: AgentSnapshot, policy: ApprovalPolicy): void {
    this.#setup = { input, snapshot, policy, maxSteps: input.maxSteps ?? snapshot.maxSteps };
    this.transcript.append({ role: 'system', content: snapshot.instructions }, { role: 'user', content: input.prompt });
    this.notifications.configure(snapshot.notify, snapshot.name);
    this.visibility.begin(input.prompt, input.requestedBy, snapshot.signedDecisions !== undefined);
    this.refresh('running the agent');
  }

  /** Picks up where the previous run of this workflow id continued as new. */
  resume(input: AgentWorkflowInput, carry: CarriedState): void {
    this.#setup = { input, snapshot: carry.snapshot, policy: carry.policy, maxSteps: carry.maxSteps };
    this.#awaitingMessage = carry.awaitingMessage;
    this.#step = carry.step;
    this.#turnSteps = carry.turnSteps;
    this.#corrected = carry.corrected;
    this.#usage = carry.usage;
    this.#always = new Map(carry.always);
    this.usedTokens.restore(carry.usedTokens);
    this.#lastOutput = carry.lastOutput;
    this.#previousRunIds = carry.previousRunIds;
    this.transcript.restore(carry.messages, carry.messagesDropped);
    this.book.restore(carry);
    this.audit.restore(carry.audit, carry.auditDropped);
    this.session.restore(carry);
    this.modelCalls.restore(carry.modelCalls);
    this.breakpoints.restore(carry.lastBreakNumber);
    this.notifications.configure(carry.snapshot.notify, carry.snapshot.name, carry.notificationSeq);
    this.visibility.resume(carry.parentReportSeq, this.audit.lastSeq, carry.snapshot.signedDecisions !== undefined);
    this.refresh('resumed after continue-as-new');
  }

  /** Everything the next run needs; only called when no tool or sub-agent is running. `decidedFirst`: AuditLog.carry. */
  carry(messages: ChatMessage[], decidedFirst = false): CarriedState {
    const dropped = this.transcript.dropped + (this.transcript.messages.length - messages.length);
    return {
      version: CARRIED_STATE_VERSION,
      snapshot: this.snapshot,
      policy: this.policy,
      maxSteps: this.maxSteps,
      awaitingMessage: this.#awaitingMessage,
      step: this.#step,
      turnSteps: this.#turnSteps,
      corrected: this.#corrected,
      messages,
      messagesDropped: dropped,
      usage: this.#usage,
      ...this.book.carry(),
      always: [...this.#always],
      usedTokens: this.usedTokens.carry(),
      ...this.audit.carry(decidedFirst),
      ...this.session.carry(),
      ...(this.#lastOutput !== undefined && { lastOutput: this.#lastOutput }),
      modelCalls: this.modelCalls.carry(),
      lastBreakNumber: this.breakpoints.lastNumber,
      notificationSeq: this.notifications.seq,
      parentReportSeq: this.visibility.reportSeqToCarry(),
      ...chainMarks(this.#previousRunIds),
      stream: this.events.carry(),
    };
  }

  // ---- the loop's steps ---------------------------------------------------------------------------------

  startModelCall(): number {
    this.#step += 1;
    this.#turnSteps += 1;
    return this.#step;
  }

  acceptReply(message: AssistantMessage, usage: Usage): void {
    this.transcript.append(message);
    this.#usage = {
      promptTokens: this.#usage.promptTokens + usage.promptTokens,
      completionTokens: this.#usage.completionTokens + usage.completionTokens,
    };
  }

  /** The model missed the response format: one corrective retry per turn. */
  askForCorrection(request: string): void {
    this.#corrected = true;
    this.transcript.append({ role: 'user', content: request });
  }

  noteAnswer(output: string): void {
    this.#lastOutput = output;
  }

  /** Appends one tool message per call, in the order the model asked for them, and closes the step. */
  closeStep(): void {
    this.transcript.append(...toolResultMessages(this.book.close()));
  }

  setAlways(toolName: string, decision: AlwaysDecision): void {
    this.#always.set(toolName, decision);
  }

  waitForMessage(idleDeadline: string): void {
    this.#awaitingMessage = true;
    this.session.startIdle(idleDeadline);
  }

  /** The next turn starts with every queued message. */
  startTurn(): void {
    this.#awaitingMessage = false;
    for (const content of this.session.drain()) this.transcript.append({ role: 'user', content });
    this.#turnSteps = 0;
    this.#corrected = false;
  }

  // ---- the end ------------------------------------------------------------------------------------------

  /** How the run ends: the answer (with its structured output), or how the session ended. */
  finish(outcome: Pick<AgentResult, 'status' | 'output' | 'structured' | 'ended'>): AgentResult {
    this.#result = { ...outcome, decisions: [...this.audit.entries], steps: this.#step, usage: this.#usage };
    this.refresh('finished');
    return this.#result;
  }

  /** Marks the run failed or canceled and returns what the workflow should throw. */
  fail(err: unknown): unknown {
    this.book.abandonWaiting();
    this.breakpoints.close();
    this.children.clear();
    if (isCancellation(err)) {
      this.#failure = { status: 'Canceled' };
      this.refresh('canceled');
      return err;
    }
    const failure = toRunFailure(err);
    this.#failure = { status: 'Failed', error: failure instanceof Error ? failure.message : String(failure) };
    this.refresh('failed');
    return failure;
  }

  // ---- what the outside sees ----------------------------------------------------------------------------

  /** The one place search attributes, memo, current details, the parent's mirror and metrics are brought up to date. */
  refresh(phase = this.#phase): void {
    this.#phase = phase;
    if (!this.#setup) return;
    this.events.observe(this.status, this.#result, this.#failure?.error);
    this.visibility.publish({
      agent: this.agent,
      status: this.status,
      step: this.#step,
      lastStep: this.#step - (this.#awaitingMessage ? 0 : this.#turnSteps) + this.maxSteps,
      phase,
      pending: this.pending(),
      gatedCalls: this.book.pending(),
      tools: this.#setup.snapshot.tools,
      audit: this.audit,
      carryUnfit: lastUnfitCarry(),
    });
  }
}
