/**
 * A typed client over `@temporalio/client`: start and inspect runs, find what waits for a decision across all
 * runs, decide, and follow a run as it moves (its events and model text, from its Workflow Stream). Approvers and other services use it without knowing Temporal's internals.
 * Runs are named by their workflow id; `runId` is only ever Temporal's id of one execution.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import {
  decideUpdate,
  endUpdate,
  messageUpdate,
  pendingApprovalQuery,
  pendingApprovalsQuery,
  runStateQuery,
} from '../contract/messages.js';
import { runStatusOf, type RunStatus } from '../contract/run-status.js';
import { HitlAgent, HitlStatus } from '../contract/search-attributes.js';
import { DEFAULT_TASK_QUEUE, WORKFLOW_TYPE } from '../contract/task-queue.js';
import { ApprovalNotFoundError, DecisionRefusedError, RunNotFoundError, SessionClosedError } from '../errors.js';
import { truncateChars } from '../bounds/truncate.js';
import { AgentWorkflowInput, type AgentWorkflowArgs } from '../schemas/agent-workflow-input.js';
import type { DecideInput, DecideResult, Decision } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunStreamItem } from '../schemas/run-event.js';
import type { AgentResult, RunState } from '../schemas/run-state.js';
import type { RunSummary } from '../schemas/run-summary.js';
import type { WaitingApproval } from '../schemas/waiting-approval.js';
import { decodeApprovalId } from './approval-id.js';
import { diagnoseRun, type RunProblem } from './run-health.js';
import { listRuns, listWaiting, memoOf, toWaiting } from './run-lists.js';
import { subscribeRun, type SubscribeOptions } from './run-subscription.js';

export interface DecisionOptions {
  approver?: string;
  groups?: string[];
  /** The hash of the arguments the approver saw; refused if the call's arguments differ. */
  argsHash?: string;
  /** Makes a retried call idempotent. @default a random id */
  updateId?: string;
}

/** A run as `show` and the HTTP API present it: its own state, or, when it cannot answer, what Temporal knows. */
export type RunView = RunState;

export class HitlClient {
  constructor(
    readonly temporal: Client,
    readonly taskQueue: string = DEFAULT_TASK_QUEUE,
  ) {}

  // ---- runs ----------------------------------------------------------------------------------------------

  /** Starts a run; its static summary (shown in the Temporal UI) is the agent and the prompt. */
  async startRun(input: AgentWorkflowArgs, options: { workflowId?: string } = {}): Promise<{ workflowId: string; runId: string }> {
    const parsed = AgentWorkflowInput.parse(input);
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
    const info = await handle.describe();
    const memo = memoOf(info);
    return {
      status: runStatusOf(info.typedSearchAttributes.get(HitlStatus), info.status.name) ?? 'Running',
      step: 0,
      agent: info.typedSearchAttributes.get(HitlAgent) ?? '',
      prompt: memo.prompt ?? '',
      ...(memo.requestedBy && { requestedBy: memo.requestedBy }),
      messages: [],
      messagesFrom: 0,
      pending: Array.isArray(memo.pendingApprovals) ? memo.pendingApprovals : [],
      decisions: [],
      decisionsFrom: 0,
      policyOutcomes: [],
      usage: { promptTokens: 0, completionTokens: 0 },
      previousRunIds: [],
      queuedMessages: 0,
      problem,
    };
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
      if (err instanceof WorkflowNotFoundError) throw await this.closedRunRefusal(workflowId, input);
      throw err;
    }
  }

  /** A decision for a finished run: refused as already decided when the run had decided that call, else as closed. */
  private async closedRunRefusal(workflowId: string, input: DecideInput): Promise<Error> {
    const handle = this.temporal.workflow.getHandle(workflowId);
    const described = await handle.describe().catch(() => undefined);
    if (!described) return new RunNotFoundError(workflowId);
    const ids = new Set(input.decisions.flatMap((d) => (d.id ? [d.id] : [])));
    const decided = await handle
      .query(runStateQuery, {})
      .then((state) => state.decisions.find((d) => d.outcome === 'applied' && d.id && ids.has(d.id)))
      .catch(() => undefined);
    if (decided) {
      return new DecisionRefusedError(
        'already_decided',
        `${decided.id} was already decided (${decided.type}${decided.approver ? ` by ${decided.approver}` : ''}).`,
      );
    }
    return new DecisionRefusedError('run_closed', `Run ${workflowId} has finished; nothing is waiting for a decision.`);
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
   * A run's events and model text as they are published, from `fromOffset` (0: all its stream still keeps),
   * across continue-as-new, until the run closes or `signal` aborts. Each item's offset resumes it (`fromOffset:
   * offset + 1`). The state from `getRun` says where its stream was (`streamOffset`).
   */
  subscribe(workflowId: string, options: SubscribeOptions = {}): AsyncGenerator<RunStreamItem> {
    return subscribeRun(this.temporal, workflowId, options);
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
