/**
 * A typed client over `@temporalio/client`: start and inspect runs, find what waits for a decision across all
 * runs, decide, and watch a run move. Approvers and other services use it without knowing Temporal's internals.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client, type WorkflowExecutionInfo } from '@temporalio/client';
import pLimit from 'p-limit';
import {
  HitlAgent,
  HitlNextDeadline,
  HitlPendingCount,
  HitlPendingTools,
  HitlStatus,
  type HitlStatusValue,
} from '../contract/search-attributes.js';
import { DEFAULT_TASK_QUEUE, WORKFLOW_TYPE } from '../contract/task-queue.js';
import { ApprovalNotFoundError } from '../errors/approval-not-found-error.js';
import { DecisionRefusedError } from '../errors/decision-refused-error.js';
import { RunNotFoundError } from '../errors/run-not-found-error.js';
import { SessionClosedError } from '../errors/session-closed-error.js';
import { AgentWorkflowInput, type AgentWorkflowArgs } from '../schemas/agent-workflow-input.js';
import type { DecideInput, DecideResult, Decision } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunEvent } from '../schemas/run-event.js';
import type { AgentResult, RunState } from '../schemas/run-state.js';
import type { RunSummary } from '../schemas/run-summary.js';
import type { WaitingApproval } from '../schemas/waiting-approval.js';
import { decideUpdate, endUpdate, messageUpdate, pendingApprovalsQuery, runStateQuery } from '../contract/messages.js';
import { decodeApprovalId, encodeApprovalId } from './approval-id.js';
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

interface RunMemo {
  prompt?: string;
  requestedBy?: string;
  /** What waits, as of the run's last change (absent for older runs; `{tooLarge: true}` when left out). */
  pendingApprovals?: PendingApproval[] | { tooLarge: true };
}

export class HitlClient {
  constructor(
    readonly temporal: Client,
    readonly taskQueue: string = DEFAULT_TASK_QUEUE,
  ) {}

  // ---- runs ----------------------------------------------------------------------------------------------

  /** Starts a run; its static summary (shown in the Temporal UI) is the agent and the prompt. */
  async startRun(input: AgentWorkflowArgs, options: { workflowId?: string } = {}): Promise<{ runId: string; temporalRunId: string }> {
    const parsed = AgentWorkflowInput.parse(input);
    const workflowId = options.workflowId ?? `${parsed.agent}-${randomUUID()}`;
    const handle = await this.temporal.workflow.start(WORKFLOW_TYPE, {
      args: [parsed],
      taskQueue: this.taskQueue,
      workflowId,
      staticSummary: truncate(`${parsed.agent}: ${parsed.prompt}`, 200),
      staticDetails: parsed.requestedBy ? `requested by ${parsed.requestedBy}` : undefined,
    });
    return { runId: workflowId, temporalRunId: handle.firstExecutionRunId };
  }

  async getRun(runId: string, options: { messagesFrom?: number; decisionsFrom?: number } = {}): Promise<RunState> {
    return this.call(runId, () => this.temporal.workflow.getHandle(runId).query(runStateQuery, options));
  }

  async result(runId: string): Promise<AgentResult> {
    return this.call(runId, () => this.temporal.workflow.getHandle(runId).result() as Promise<AgentResult>);
  }

  async cancel(runId: string): Promise<void> {
    await this.call(runId, () => this.temporal.workflow.getHandle(runId).cancel());
  }

  async listRuns(filter: { status?: HitlStatusValue; agent?: string; limit?: number } = {}): Promise<RunSummary[]> {
    const clauses = [`WorkflowType = '${WORKFLOW_TYPE}'`];
    if (filter.status) clauses.push(`HitlStatus = ${quote(filter.status)}`);
    if (filter.agent) clauses.push(`HitlAgent = ${quote(filter.agent)}`);
    const runs: RunSummary[] = [];
    for await (const info of this.temporal.workflow.list({ query: clauses.join(' AND ') })) {
      runs.push(toSummary(info));
      if (runs.length >= (filter.limit ?? 100)) break;
    }
    return runs;
  }

  // ---- approvals -----------------------------------------------------------------------------------------

  async pending(runId: string): Promise<PendingApproval[]> {
    return this.call(runId, () => this.temporal.workflow.getHandle(runId).query(pendingApprovalsQuery));
  }

  /**
   * Everything waiting for a decision, across runs, from visibility alone: the waiting runs by search attribute,
   * their pending calls from the memo. One list call for any number of runs; it may lag a moment behind the runs
   * themselves (a decision then answers 409 "already decided"). `pending(runId)` asks the run.
   */
  async listWaiting(filter: { agent?: string; tool?: string } = {}): Promise<WaitingApproval[]> {
    const clauses = [`WorkflowType = '${WORKFLOW_TYPE}'`, `HitlStatus = 'AwaitingApproval'`];
    if (filter.agent) clauses.push(`HitlAgent = ${quote(filter.agent)}`);
    if (filter.tool) clauses.push(`HitlPendingTools = ${quote(filter.tool)}`);
    const infos: WorkflowExecutionInfo[] = [];
    for await (const info of this.temporal.workflow.list({ query: clauses.join(' AND ') })) {
      // A sub-agent's calls are listed through its parent (marked with the sub-agent's workflow id).
      if (!info.parentExecution) infos.push(info);
    }

    // Runs publish what waits in their memo; runs that cannot (too much, or older code) are asked directly.
    const limit = pLimit(8);
    const perRun = await Promise.all(
      infos.map((info) =>
        limit(async () => {
          const memo = (info.memo ?? {}) as RunMemo;
          const pending = Array.isArray(memo.pendingApprovals)
            ? memo.pendingApprovals
            : await this.temporal.workflow
                .getHandle(info.workflowId)
                .query(pendingApprovalsQuery)
                .catch(() => [] as PendingApproval[]); // finished between the list and the query
          return pending
            .filter((p) => !filter.tool || p.toolName === filter.tool)
            .map((p) => toWaiting(p, info.workflowId, info.typedSearchAttributes.get(HitlAgent) ?? '', memo));
        }),
      ),
    );
    return perRun.flat().sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
  }

  /** Resolves a global approval id to the call, while it is still pending. */
  async findApproval(approvalId: string): Promise<WaitingApproval> {
    const ref = decodeApprovalId(approvalId);
    if (!ref) throw new ApprovalNotFoundError(approvalId, 'it is not a valid approval id');
    const handle = this.temporal.workflow.getHandle(ref.workflowId);
    let pending: PendingApproval[];
    let description;
    try {
      [pending, description] = await Promise.all([handle.query(pendingApprovalsQuery), handle.describe()]);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new ApprovalNotFoundError(approvalId, `run ${ref.workflowId} does not exist`);
      throw err;
    }
    const call = pending.find((p) => p.id === ref.callId);
    if (!call) throw new ApprovalNotFoundError(approvalId, `call ${ref.callId} is not waiting for a decision`);
    return toWaiting(call, ref.workflowId, description.typedSearchAttributes.get(HitlAgent) ?? '', (description.memo ?? {}) as RunMemo);
  }

  /** Sends decisions through the `decide` update; a refusal throws DecisionRefusedError with the run's reason. */
  async decide(runId: string, input: DecideInput, options: { updateId?: string } = {}): Promise<DecideResult> {
    const handle = this.temporal.workflow.getHandle(runId);
    try {
      return await handle.executeUpdate(decideUpdate, { args: [input], updateId: options.updateId ?? randomUUID() });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) {
        const code = DecisionRefusedError.codeOf(err.cause);
        // Anything else that fails the update is not a verdict on the input: let it surface as the error it is.
        if (!code) throw err.cause ?? err;
        throw new DecisionRefusedError(code, err.cause?.message ?? err.message);
      }
      if (err instanceof WorkflowNotFoundError) {
        if (await this.hasFinished(runId))
          throw new DecisionRefusedError('run_closed', `Run ${runId} has finished; nothing is waiting for a decision.`);
        throw new RunNotFoundError(runId);
      }
      throw err;
    }
  }

  approve(runId: string, callId: string, options: DecisionOptions & { message?: string; always?: boolean } = {}) {
    return this.decideOne(runId, { id: callId, type: 'approve', message: options.message, always: options.always }, options);
  }

  edit(runId: string, callId: string, options: DecisionOptions & { args?: Record<string, unknown>; name?: string; message?: string }) {
    return this.decideOne(runId, { id: callId, type: 'edit', args: options.args, name: options.name, message: options.message }, options);
  }

  reject(runId: string, callId: string, options: DecisionOptions & { message?: string; always?: boolean } = {}) {
    return this.decideOne(runId, { id: callId, type: 'reject', message: options.message, always: options.always }, options);
  }

  respond(runId: string, callId: string, message: string, options: DecisionOptions = {}) {
    return this.decideOne(runId, { id: callId, type: 'respond', message }, options);
  }

  private decideOne(runId: string, decision: Decision, options: DecisionOptions) {
    const clean = Object.fromEntries(
      Object.entries({ ...decision, argsHash: options.argsHash }).filter(([, v]) => v !== undefined),
    ) as Decision;
    return this.decide(
      runId,
      { decisions: [clean], ...(options.approver && { approver: options.approver }), ...(options.groups && { groups: options.groups }) },
      { updateId: options.updateId },
    );
  }

  // ---- sessions ------------------------------------------------------------------------------------------

  /** Sends the next user message to a session run; it is queued if a turn is running. */
  async say(runId: string, content: string, options: { from?: string } = {}): Promise<{ queued: number }> {
    return this.sessionUpdate(runId, () =>
      this.temporal.workflow
        .getHandle(runId)
        .executeUpdate(messageUpdate, { args: [{ content, ...(options.from && { from: options.from }) }] }),
    );
  }

  /** Closes a session run once its current turn is done. */
  async endSession(runId: string, reason?: string): Promise<void> {
    await this.sessionUpdate(runId, () =>
      this.temporal.workflow.getHandle(runId).executeUpdate(endUpdate, { args: [reason ? { reason } : {}] }),
    );
  }

  private async sessionUpdate<T>(runId: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new SessionClosedError(runId, err.cause?.message ?? err.message);
      if (err instanceof WorkflowNotFoundError) {
        if (await this.hasFinished(runId)) throw new SessionClosedError(runId, 'the run has finished.');
        throw new RunNotFoundError(runId);
      }
      throw err;
    }
  }

  /** Updates to a finished run fail as "not found"; tell that apart from a run that never existed. */
  private hasFinished(runId: string): Promise<boolean> {
    return this.temporal.workflow
      .getHandle(runId)
      .describe()
      .then(
        (d) => d.status.name !== 'RUNNING',
        () => false,
      );
  }

  // ---- watching ------------------------------------------------------------------------------------------

  /**
   * Yields a run's events as they happen, until it ends. It asks the `runState` query for what is new at a
   * modest interval rather than holding a long-poll update open: an update is written to history (two events per
   * poll, forever, counting toward the history limit), while a query costs no history at all. A second of delay
   * is the price, and it is fine for people watching.
   */
  async *watch(runId: string, options: WatchOptions = {}): AsyncGenerator<RunEvent> {
    let cursor = START_CURSOR;
    for (;;) {
      const state = await this.getRun(runId, { messagesFrom: cursor.messages, decisionsFrom: cursor.decisions });
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

  private async call<T>(runId: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new RunNotFoundError(runId);
      throw err;
    }
  }
}

function toWaiting(p: PendingApproval, runId: string, agent: string, memo: RunMemo): WaitingApproval {
  return {
    ...p,
    approvalId: encodeApprovalId({ workflowId: p.workflowId ?? runId, callId: p.id }),
    runId,
    agent,
    userPrompt: memo.prompt ?? '',
    ...(memo.requestedBy && { requestedBy: memo.requestedBy }),
  };
}

function toSummary(info: WorkflowExecutionInfo): RunSummary {
  const attrs = info.typedSearchAttributes;
  const memo = (info.memo ?? {}) as RunMemo;
  const deadline = attrs.get(HitlNextDeadline);
  return {
    runId: info.workflowId,
    agent: attrs.get(HitlAgent),
    status: attrs.get(HitlStatus) ?? info.status.name,
    pendingCount: attrs.get(HitlPendingCount) ?? 0,
    pendingTools: attrs.get(HitlPendingTools) ?? [],
    ...(deadline && { nextDeadline: deadline.toISOString() }),
    startTime: info.startTime.toISOString(),
    ...(info.closeTime && { closeTime: info.closeTime.toISOString() }),
    ...(memo.prompt && { prompt: memo.prompt }),
    ...(memo.requestedBy && { requestedBy: memo.requestedBy }),
  };
}

/** A visibility-query string literal. */
function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
