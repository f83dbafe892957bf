/**
 * A typed client over `@temporalio/client`: start and inspect runs, find what waits for a decision across all
 * runs, decide, and watch a run move. Approvers and other services use it without knowing Temporal's internals.
 * Runs are named by their workflow id; `runId` is only ever Temporal's id of one execution.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import {
  decideUpdate,
  endUpdate,
  messageUpdate,
  pendingApprovalQuery,
  pendingApprovalsQuery,
  runStateQuery,
} from '../contract/messages.js';
import type { RunStatus } from '../contract/run-status.js';
import { HitlAgent } from '../contract/search-attributes.js';
import { DEFAULT_TASK_QUEUE, WORKFLOW_TYPE } from '../contract/task-queue.js';
import { checkContext, contextRefusal, type ContextSchema } from '../agents/context-schema.js';
import { AgentStore } from '../store/agent-store.js';
import { ApprovalNotFoundError, DecisionRefusedError, InvalidRunInputError, RunNotFoundError, SessionClosedError } from '../errors.js';
import { truncateChars } from '../bounds/truncate.js';
import { AgentWorkflowInput, type AgentWorkflowArgs } from '../schemas/agent-workflow-input.js';
import type { DecideInput, DecideResult, Decision } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunEvent } from '../schemas/run-event.js';
import type { AgentResult, RunState } from '../schemas/run-state.js';
import type { RunSummary } from '../schemas/run-summary.js';
import type { WaitingApproval } from '../schemas/waiting-approval.js';
import { decodeApprovalId } from './approval-id.js';
import { diagnoseRun, type RunProblem } from './run-health.js';
import { closedRunRefusal, stuckView } from './run-fallbacks.js';
import { listRuns, listWaiting, memoOf, toWaiting } from './run-lists.js';
import { diffRunState, START_CURSOR, TERMINAL } from './run-events.js';

export interface DecisionOptions {
  approver?: string;
  groups?: string[];
  /** The hash of the arguments the approver saw; refused if the call's arguments differ. */
  argsHash?: string;
  /** Makes a retried call idempotent. @default a random id */
  updateId?: string;
}

export interface WatchOptions {
  /** @default 1000 */
  intervalMs?: number;
  signal?: AbortSignal;
}

/** A run as `show` and the HTTP API present it: its own state, or, when it cannot answer, what Temporal knows. */
export type RunView = RunState;

/** What the client knows of the agents the workers serve: enough to refuse a context that does not fit. */
export type KnownAgents = Readonly<Record<string, { contextSchema?: ContextSchema }>>;

export class HitlClient {
  constructor(
    readonly temporal: Client,
    readonly taskQueue: string = DEFAULT_TASK_QUEUE,
    /** When given, a run whose context does not match its agent's `contextSchema` is refused before it starts. */
    readonly agents?: KnownAgents,
  ) {}

  /** The store across runs, the one tools use (`ctx.store`): read what runs wrote, or write for them. */
  get store(): AgentStore {
    return new AgentStore(this.temporal, this.taskQueue);
  }

  // ---- runs ----------------------------------------------------------------------------------------------

  /** Starts a run; its static summary (shown in the Temporal UI) is the agent and the prompt. */
  async startRun(input: AgentWorkflowArgs, options: { workflowId?: string } = {}): Promise<{ workflowId: string; runId: string }> {
    const parsed = AgentWorkflowInput.parse(input);
    const schema = this.agents && Object.hasOwn(this.agents, parsed.agent) ? this.agents[parsed.agent]!.contextSchema : undefined;
    const context = checkContext(schema, parsed.context);
    if (!context.ok) throw new InvalidRunInputError(contextRefusal(parsed.agent, context.problems));
    const workflowId = options.workflowId ?? `${parsed.agent}-${randomUUID()}`;
    const handle = await this.temporal.workflow.start(WORKFLOW_TYPE, {
      args: [parsed],
      taskQueue: this.taskQueue,
      workflowId,
      staticSummary: truncateChars(`${parsed.agent}: ${parsed.prompt}`, 200),
      staticDetails: parsed.requestedBy ? `requested by ${parsed.requestedBy}` : undefined,
    });
    return { workflowId, runId: handle.firstExecutionRunId };
  }

  /**
   * A run's state from the run itself. A stuck run cannot answer (its workflow task fails, or no worker polls):
   * then the view comes from what Temporal knows (status, prompt and pending calls as last published), with the
   * problem said plainly.
   */
  async getRun(workflowId: string, options: { messagesFrom?: number; decisionsFrom?: number } = {}): Promise<RunView> {
    const handle = this.temporal.workflow.getHandle(workflowId);
    const problem = await this.call(workflowId, () => diagnoseRun(this.temporal, handle));
    if (!problem) return this.call(workflowId, () => handle.query(runStateQuery, options));
    return stuckView(handle, problem);
  }

  /** Why a run is stuck, or undefined when it is not. */
  diagnose(workflowId: string): Promise<RunProblem | undefined> {
    return this.call(workflowId, () => diagnoseRun(this.temporal, this.temporal.workflow.getHandle(workflowId)));
  }

  async result(workflowId: string): Promise<AgentResult> {
    return this.call(workflowId, () => this.temporal.workflow.getHandle(workflowId).result() as Promise<AgentResult>);
  }

  async cancel(workflowId: string): Promise<void> {
    await this.call(workflowId, () => this.temporal.workflow.getHandle(workflowId).cancel());
  }

  listRuns(filter: { status?: RunStatus; agent?: string; limit?: number } = {}): Promise<RunSummary[]> {
    return listRuns(this.temporal, filter);
  }

  /** Open runs that are stuck, with why; checks at most `limit` of the newest open runs. */
  async listStuck(filter: { agent?: string; limit?: number } = {}): Promise<(RunSummary & { problem: RunProblem })[]> {
    const open = (
      await Promise.all(
        (['Running', 'AwaitingApproval', 'AwaitingMessage'] as const).map((status) =>
          listRuns(this.temporal, { ...filter, status, limit: filter.limit ?? 200 }),
        ),
      )
    ).flat();
    const checked = await Promise.all(
      open.map(async (run) => ({ run, problem: await this.diagnose(run.workflowId).catch(() => undefined) })),
    );
    return checked.flatMap(({ run, problem }) => (problem ? [{ ...run, problem }] : []));
  }

  // ---- approvals -----------------------------------------------------------------------------------------

  async pending(workflowId: string): Promise<PendingApproval[]> {
    return this.call(workflowId, () => this.temporal.workflow.getHandle(workflowId).query(pendingApprovalsQuery));
  }

  listWaiting(filter: { agent?: string; tool?: string } = {}): Promise<WaitingApproval[]> {
    return listWaiting(this.temporal, filter);
  }

  /** Resolves a global approval id to the call, with its arguments whole, while it is still pending. */
  async findApproval(approvalId: string): Promise<WaitingApproval> {
    const ref = decodeApprovalId(approvalId);
    if (!ref) throw new ApprovalNotFoundError(approvalId, 'it is not a valid approval id');
    const handle = this.temporal.workflow.getHandle(ref.workflowId);
    let call: PendingApproval | undefined;
    let description;
    try {
      [call, description] = await Promise.all([handle.query(pendingApprovalQuery, ref.callId), handle.describe()]);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new ApprovalNotFoundError(approvalId, `run ${ref.workflowId} does not exist`);
      throw err;
    }
    if (!call) throw new ApprovalNotFoundError(approvalId, `call ${ref.callId} is not waiting for a decision`);
    return toWaiting(call, ref.workflowId, description.typedSearchAttributes.get(HitlAgent) ?? '', memoOf(description));
  }

  /**
   * Sends decisions through the `decide` update; a refusal throws DecisionRefusedError with the run's reason. A
   * stuck run is refused up front: its validator cannot run, so the update would only wait.
   */
  async decide(workflowId: string, input: DecideInput, options: { updateId?: string } = {}): Promise<DecideResult> {
    const handle = this.temporal.workflow.getHandle(workflowId);
    const problem = await diagnoseRun(this.temporal, handle).catch(() => undefined);
    if (problem) {
      throw new DecisionRefusedError(
        'run_stuck',
        `Run ${workflowId} is stuck (${problem.kind}${problem.failure ? `: ${problem.failure}` : ''}); your decision was not recorded. ${problem.advice[0]}`,
      );
    }
    try {
      return await handle.executeUpdate(decideUpdate, { args: [input], updateId: options.updateId ?? randomUUID() });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) {
        const code = DecisionRefusedError.codeOf(err.cause);
        // Anything else that fails the update is not a verdict on the input: let it surface as the error it is.
        if (!code) throw err.cause ?? err;
        throw new DecisionRefusedError(code, err.cause?.message ?? err.message);
      }
      if (err instanceof WorkflowNotFoundError) throw await closedRunRefusal(this.temporal, workflowId, input);
      throw err;
    }
  }

  /** One decision for one call, by the call's id. */
  decideOne(workflowId: string, decision: Decision, options: DecisionOptions = {}): Promise<DecideResult> {
    const clean = Object.fromEntries(
      Object.entries({ ...decision, ...(options.argsHash && { argsHash: options.argsHash }) }).filter(([, v]) => v !== undefined),
    ) as Decision;
    return this.decide(
      workflowId,
      { decisions: [clean], ...(options.approver && { approver: options.approver }), ...(options.groups && { groups: options.groups }) },
      { updateId: options.updateId },
    );
  }

  approve(workflowId: string, callId: string, options: DecisionOptions & { message?: string; always?: boolean } = {}) {
    return this.decideOne(workflowId, { id: callId, type: 'approve', message: options.message, always: options.always }, options);
  }

  edit(workflowId: string, callId: string, options: DecisionOptions & { args?: Record<string, unknown>; name?: string; message?: string }) {
    return this.decideOne(
      workflowId,
      { id: callId, type: 'edit', args: options.args, name: options.name, message: options.message },
      options,
    );
  }

  reject(workflowId: string, callId: string, options: DecisionOptions & { message?: string; always?: boolean } = {}) {
    return this.decideOne(workflowId, { id: callId, type: 'reject', message: options.message, always: options.always }, options);
  }

  respond(workflowId: string, callId: string, message: string, options: DecisionOptions = {}) {
    return this.decideOne(workflowId, { id: callId, type: 'respond', message }, options);
  }

  // ---- sessions ------------------------------------------------------------------------------------------

  /** Sends the next user message to a session run; it is queued if a turn is running. */
  async say(workflowId: string, content: string, options: { from?: string } = {}): Promise<{ queued: number }> {
    return this.sessionUpdate(workflowId, () =>
      this.temporal.workflow
        .getHandle(workflowId)
        .executeUpdate(messageUpdate, { args: [{ content, ...(options.from && { from: options.from }) }] }),
    );
  }

  /** Closes a session run once its current turn is done. */
  async endSession(workflowId: string, reason?: string): Promise<void> {
    await this.sessionUpdate(workflowId, () =>
      this.temporal.workflow.getHandle(workflowId).executeUpdate(endUpdate, { args: [reason ? { reason } : {}] }),
    );
  }

  private async sessionUpdate<T>(workflowId: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new SessionClosedError(workflowId, err.cause?.message ?? err.message);
      if (err instanceof WorkflowNotFoundError) {
        if (await this.hasFinished(workflowId)) throw new SessionClosedError(workflowId, 'the run has finished.');
        throw new RunNotFoundError(workflowId);
      }
      throw err;
    }
  }

  /** Updates to a finished run fail as "not found"; tell that apart from a run that never existed. */
  private hasFinished(workflowId: string): Promise<boolean> {
    return this.temporal.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        (d) => d.status.name !== 'RUNNING',
        () => false,
      );
  }

  // ---- watching ------------------------------------------------------------------------------------------

  /**
   * Yields a run's events as they happen, until it ends. It asks the `runState` query for what is new at a modest
   * interval: a query costs no history at all. A second of delay is the price, and it is fine for people watching.
   */
  async *watch(workflowId: string, options: WatchOptions = {}): AsyncGenerator<RunEvent> {
    let cursor = START_CURSOR;
    for (;;) {
      const state = await this.getRun(workflowId, { messagesFrom: cursor.messages, decisionsFrom: cursor.decisions });
      const next = diffRunState(cursor, state);
      cursor = next.cursor;
      yield* next.events;
      if (TERMINAL.has(state.status)) return;
      try {
        await sleep(options.intervalMs ?? 1000, undefined, { signal: options.signal });
      } catch {
        return; // aborted
      }
    }
  }

  private async call<T>(workflowId: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new RunNotFoundError(workflowId);
      throw err;
    }
  }
}
