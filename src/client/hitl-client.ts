/**
 * A typed client over `@temporalio/client`: start and inspect runs, find what waits for a decision across all
 * runs, decide, and follow a run as it moves (its events and model text, from its Workflow Stream). Approvers and other services use it without knowing Temporal's internals.
 * Runs are named by their workflow id; `runId` is only ever Temporal's id of one execution.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { decideUpdate, endUpdate, messageUpdate, pendingApprovalsQuery, runStateQuery } from '../contract/messages.js';
import { DEFAULT_TASK_QUEUE, WORKFLOW_TYPE } from '../contract/task-queue.js';
import { AgentStore } from '../store/agent-store.js';
import { ApprovalNotFoundError, DecisionRefusedError, RunNotFoundError } from '../errors.js';
import type { DecideInput, DecideResult, Decision } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunStreamItem } from '../schemas/run-event.js';
import type { AgentResult, RunState } from '../schemas/run-state.js';
import type { ListedRun } from '../schemas/run-summary.js';
import type { WaitingApproval } from '../schemas/waiting-approval.js';
import { heldAsOf } from '../policy/held-approvals.js';
import { diagnoseRun, withHealth, withRetrying, type DiagnoseOptions, type HealthOptions, type RunProblem } from './run-health.js';
import { listRuns, listWaiting, waitingAcrossRuns, type RunFilter, type WaitingFilter, type WaitingListing } from './run-lists.js';
import { closedRunRefusal, failedTaskRefusal, failedWhileApplying, refuseIfTooLarge, stuckRefusal } from './decision-refusals.js';
import { sendWhileBusy } from './run-busy.js';
import { unsignedRetry } from './unsigned-retry.js';
import { sendSessionUpdate } from './session-updates.js';
import { stuckView } from './stuck-view.js';
import { asEnded, endedAs } from './ended-run.js';
import { withStartedAgentAndPrompt } from './started-with.js';
import { requireAgentRun } from './followed-run.js';
import { subscribeRun, type SubscribeOptions } from './run-subscription.js';
import { findApproval } from './find-approval.js';
import { approvalStatusOf } from './approval-status.js';
import { cancelRun } from './cancel-run.js';
import { awaitOwnersAnswers, OWNER_ANSWER_WAIT_MS } from './forward-verdicts.js';
import type { ApprovalStatus } from '../schemas/approval-status.js';
import { decodeApprovalId } from '../contract/approval-id.js';
import { checkStartInput, refuseTakenId, startOptions, type KnownAgents, type StartInput } from './start-input.js';
import type { DecisionSigner } from '../signing/sign-decision.js';

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
    /** When a run counts as stuck (tests shorten how long a worker may be silent). */
    readonly health: HealthOptions = {},
    /** When given, a run whose context does not match its agent's `contextSchema` is refused before it starts. */
    readonly agents?: KnownAgents,
    /** How long a decision passed on to a sub-agent waits for the sub-agent's answer (forward-verdicts.ts). */
    readonly ownerAnswerWaitMs = OWNER_ANSWER_WAIT_MS,
  ) {}

  /** The store across runs, the one tools use (`ctx.store`): read what runs wrote, or write for them. */
  get store(): AgentStore {
    return new AgentStore(this.temporal, this.taskQueue);
  }

  // ---- runs ----------------------------------------------------------------------------------------------
  /**
   * Starts a run; its static summary (shown in the Temporal UI) is the agent and the prompt. With `signer`, the
   * run's `requestedBy` goes with a request token signed in that name, which a run that requires signed decisions
   * needs (src/workflows/proven-requester.ts).
   */
  async startRun(
    input: StartInput,
    options: { workflowId?: string; signer?: DecisionSigner } = {},
  ): Promise<{ workflowId: string; runId: string }> {
    const parsed = checkStartInput(input, this.agents, options.workflowId);
    const workflowId = options.workflowId ?? `${parsed.agent}-${randomUUID()}`;
    const started = this.temporal.workflow.start(WORKFLOW_TYPE, startOptions(parsed, workflowId, this.taskQueue, options.signer));
    const handle = await started.catch(refuseTakenId(workflowId));
    return { workflowId, runId: handle.firstExecutionRunId };
  }

  /**
   * A run's state from the run itself. A stuck run cannot answer (its workflow task fails, or no worker polls):
   * then the view comes from what Temporal knows (status, prompt and pending calls as last published), with the
   * problem said plainly. A query that fails is checked again the same way: the run may have got stuck meanwhile.
   * A run Temporal has closed says how Temporal ended it, with nothing pending (ended-run.ts); one that refused its
   * input before reading it shows the agent and prompt it was started with (started-with.ts). A workflow of another
   * type is refused (NotAnAgentRunError): it answers none of a run's queries.
   */
  async getRun(workflowId: string, options: { messagesFrom?: number; decisionsFrom?: number } = {}): Promise<RunView> {
    const handle = this.temporal.workflow.getHandle(workflowId);
    const description = await this.call(workflowId, () => handle.describe());
    requireAgentRun(workflowId, description);
    const problem = await this.diagnose(workflowId, { description });
    if (problem) return stuckView(this.temporal, handle, problem);
    try {
      const state = await this.call(workflowId, () => handle.query(runStateQuery, options));
      const held = { ...state, pending: state.pending.map((call) => heldAsOf(call, Date.now())) };
      const ended = asEnded(withRetrying(held, description), description);
      return await withStartedAgentAndPrompt(this.temporal, workflowId, description.runId, ended);
    } catch (err) {
      const later = await this.diagnose(workflowId).catch(() => undefined);
      if (later) return stuckView(this.temporal, handle, later);
      throw err;
    }
  }

  /** Why a run is stuck, or undefined when it is not. */
  diagnose(workflowId: string, asked: DiagnoseOptions = {}): Promise<RunProblem | undefined> {
    const handle = this.temporal.workflow.getHandle(workflowId);
    return this.call(workflowId, () => diagnoseRun(this.temporal, handle, { ...this.health, ...asked }));
  }

  async result(workflowId: string): Promise<AgentResult> {
    return this.call(workflowId, () => this.temporal.workflow.getHandle(workflowId).result() as Promise<AgentResult>);
  }

  /** Asks the run to cancel (cancel-run.ts); `caller` as for `say`. */
  cancel(workflowId: string, options: { caller?: string } = {}): Promise<{ cancelling: true }> {
    return cancelRun(this.temporal, workflowId, options.caller);
  }

  /** Runs, newest first; an open run says when it is stuck (why) or retries anything (what). */
  async listRuns(filter: RunFilter = {}): Promise<ListedRun[]> {
    return withHealth(this.temporal, await listRuns(this.temporal, filter), this.health);
  }

  /** Open runs that are stuck, with why; checks at most `limit` of the newest open runs. */
  async listStuck(filter: { agent?: string; limit?: number } = {}): Promise<(ListedRun & { problem: RunProblem })[]> {
    const open = await this.listRuns({ ...filter, open: true, limit: filter.limit ?? 200 });
    return open.filter((run): run is ListedRun & { problem: RunProblem } => run.problem !== undefined);
  }

  // ---- approvals -----------------------------------------------------------------------------------------
  /** What waits in one run; a stuck run's list is what it last published, a closed run's is empty. */
  async pending(workflowId: string): Promise<PendingApproval[]> {
    const handle = this.temporal.workflow.getHandle(workflowId);
    const description = await this.call(workflowId, () => handle.describe());
    requireAgentRun(workflowId, description);
    const problem = await this.diagnose(workflowId, { description });
    if (problem) return (await stuckView(this.temporal, handle, problem)).pending;
    // A closed run waits for nothing; its query would need a worker to replay it.
    if (endedAs(description)) return [];
    // As of now: approvals that lapsed since the run last changed its listing are not shown as counted.
    const pending = await this.call(workflowId, () => handle.query(pendingApprovalsQuery));
    return pending.map((call) => heldAsOf(call, Date.now()));
  }

  listWaiting(filter: WaitingFilter = {}): Promise<WaitingApproval[]> {
    return listWaiting(this.temporal, filter);
  }

  /** listWaiting, with the waiting runs this client cannot read (encrypted with keys it lacks). */
  waitingAcrossRuns(filter: WaitingFilter = {}): Promise<WaitingListing> {
    return waitingAcrossRuns(this.temporal, filter);
  }

  /**
   * Resolves a global approval id to the call, with its arguments whole, while it is still pending. A stuck run's
   * call comes from what the run last published, with the problem.
   */
  findApproval(approvalId: string): Promise<WaitingApproval> {
    return findApproval(this.temporal, approvalId, this.health);
  }

  /** Where an approval stands, waiting or not: what its run's state and audit log say became of it. */
  async approvalStatus(approvalId: string): Promise<ApprovalStatus> {
    const ref = decodeApprovalId(approvalId);
    if (!ref) throw new ApprovalNotFoundError(approvalId, 'it is not a valid approval id');
    const status = await approvalStatusOf((workflowId) => this.getRun(workflowId), ref.workflowId, ref.callId);
    if (!status) throw new ApprovalNotFoundError(approvalId, `run ${ref.workflowId} shows no approval ${ref.callId}`);
    return status;
  }

  /**
   * Sends decisions through the `decide` update; a refusal throws DecisionRefusedError with the run's reason. Refused
   * up front: an input too large for any run (too_large), and a stuck run (run_stuck; no worker could validate the
   * update, so it would only wait). So is a decision whose workflow task fails while applying it: Temporal then drops
   * the update, and the run waits as it did before. One the run refuses as busy is sent again (run-busy.ts). A decision
   * the run passed on to the sub-agent that owns the call waits a moment for the sub-agent's answer, and throws its
   * refusal (forward-verdicts.ts).
   */
  async decide(workflowId: string, input: DecideInput, options: { updateId?: string } = {}): Promise<DecideResult> {
    refuseIfTooLarge(input);
    const handle = this.temporal.workflow.getHandle(workflowId);
    // Another workflow (the store's, a service's own) takes no decisions: said as such, not as a run that is stuck.
    const description = await this.call(workflowId, () => handle.describe());
    requireAgentRun(workflowId, description);
    // A run gone by now is refused as such by the update below.
    const problem = await this.diagnose(workflowId, { description }).catch(() => undefined);
    if (problem) throw stuckRefusal(workflowId, problem);
    const updateId = options.updateId ?? randomUUID();
    const send = (sent: DecideInput) => sendWhileBusy(() => handle.executeUpdate(decideUpdate, { args: [sent], updateId }));
    let result: DecideResult;
    try {
      result = await send(input).catch((err: unknown) => {
        const unsigned = unsignedRetry(err, input);
        if (!unsigned) throw err;
        return send(unsigned);
      });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) {
        const code = DecisionRefusedError.codeOf(err.cause);
        // Anything else that fails the update is not a verdict on the input: let it surface as the error it is.
        if (!code) throw err.cause ?? err;
        throw new DecisionRefusedError(code, err.cause?.message ?? err.message);
      }
      if (err instanceof WorkflowNotFoundError) throw await closedRunRefusal(this.temporal, workflowId, input);
      if (failedWhileApplying(err)) throw await failedTaskRefusal(this.temporal, workflowId, () => this.diagnose(workflowId));
      throw err;
    }
    // Only the owner's refusal changes the answer: a query that fails here leaves it as the run gave it.
    const readAudit = (from: number) => handle.query(runStateQuery, { decisionsFrom: from, messagesFrom: Number.MAX_SAFE_INTEGER });
    await awaitOwnersAnswers(readAudit, result.applied, this.ownerAnswerWaitMs).catch((err: unknown) => {
      if (err instanceof DecisionRefusedError) throw err;
    });
    return result;
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
  /**
   * Sends the next user message to a session run; it is queued if a turn is running. With `caller` (who is known to
   * send it, as the API knows its token's), a run asked for by someone else refuses it (NotRequesterError).
   */
  async say(workflowId: string, content: string, options: { from?: string; caller?: string } = {}): Promise<{ queued: number }> {
    const input = { content, ...(options.from && { from: options.from }) };
    const send = () => this.temporal.workflow.getHandle(workflowId).executeUpdate(messageUpdate, { args: [input] });
    return sendSessionUpdate(this.temporal, workflowId, send, this.health, options.caller);
  }

  /** Closes a session run once its current turn is done; `caller` as for `say`. */
  async endSession(workflowId: string, reason?: string, options: { caller?: string } = {}): Promise<void> {
    const send = () => this.temporal.workflow.getHandle(workflowId).executeUpdate(endUpdate, { args: [reason ? { reason } : {}] });
    await sendSessionUpdate(this.temporal, workflowId, send, this.health, options.caller);
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
