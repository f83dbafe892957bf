/**
 * Lists across runs, from visibility alone: runs by status and agent, and everything waiting for a decision. Only
 * each workflow id's current execution is listed (continued-as-new executions are history, not runs), and a
 * sub-agent's calls are listed through the top-level run that shows them.
 */
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import pLimit from 'p-limit';
import { pendingApprovalsQuery } from '../contract/messages.js';
import { runStatusOf, statusClause, type RunStatus } from '../contract/run-status.js';
import { HitlAgent, HitlNextDeadline, HitlPendingCount, HitlPendingTools, HitlStatus } from '../contract/search-attributes.js';
import { WORKFLOW_TYPE } from '../contract/task-queue.js';
import { heldAsOf } from '../policy/held-approvals.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { RunMemo } from '../schemas/run-memo.js';
import type { RunSummary } from '../schemas/run-summary.js';
import type { WaitingApproval } from '../schemas/waiting-approval.js';
import { encodeApprovalId } from '../contract/approval-id.js';
import { listExecutions } from './list-executions.js';

/** Executions that are runs: our workflow type, not a continued-as-new execution. */
export const RUNS = `WorkflowType = '${WORKFLOW_TYPE}' AND ExecutionStatus != 'ContinuedAsNew'`;

export interface RunFilter {
  status?: RunStatus;
  /** Only open runs (Running, AwaitingApproval, AwaitingMessage). */
  open?: boolean;
  agent?: string;
  /** @default 100 */
  limit?: number;
}

export async function listRuns(client: Client, filter: RunFilter = {}): Promise<RunSummary[]> {
  const clauses = [RUNS];
  if (filter.status) clauses.push(statusClause(filter.status));
  if (filter.open) clauses.push(`ExecutionStatus = 'Running'`);
  if (filter.agent) clauses.push(`HitlAgent = ${quote(filter.agent)}`);
  const runs: RunSummary[] = [];
  for await (const info of listExecutions(client, clauses.join(' AND '))) {
    const summary = toSummary(info);
    if (summary) runs.push(summary);
    if (runs.length >= (filter.limit ?? 100)) break;
  }
  return runs;
}

/**
 * Everything waiting for a decision, across runs: the waiting runs by search attribute, their pending calls from
 * the memo. One list call for any number of runs; it may lag a moment behind the runs themselves (a decision then
 * answers 409 "already decided"). Runs whose memo cannot hold the list are asked directly; a run that cannot answer
 * (stuck) still lists what its memo last held rather than disappearing.
 */
export interface WaitingFilter {
  /** The agent whose call it is, or of the run it is listed under: a sub-agent's calls go by both names. */
  agent?: string;
  tool?: string;
  /** One run only. */
  workflowId?: string;
}

export async function listWaiting(client: Client, filter: WaitingFilter = {}): Promise<WaitingApproval[]> {
  return (await waitingAcrossRuns(client, filter)).waiting;
}

/**
 * A waiting run that could not be read here, and why: the codec's words (no codec, no such key, another key), or the
 * query's when the run's memo does not hold its calls and the run did not answer.
 */
export interface UnreadableRun {
  workflowId: string;
  reason: string;
}

/** What waits across runs, and the waiting runs that could not be read here (their calls are not in `waiting`). */
export interface WaitingListing {
  waiting: WaitingApproval[];
  unreadable: UnreadableRun[];
}

/**
 * How long a list waits for a run that must be asked what it waits for: a query to a run that no worker answers
 * waits for the server's own timeout (a minute), and one such run would hold up the whole list.
 */
const LIST_QUERY_TIMEOUT_MS = 5_000;

/**
 * What a run says it waits for when its memo does not list it, or why it did not say: the SDK's "Failed to query
 * Workflow" with what its gRPC cause says (no poller, a failed task), or that the time ran out (which the SDK reports
 * as a deadline or as a cancelled call).
 */
async function askPending(client: Client, workflowId: string): Promise<{ pending: PendingApproval[] } | { failure: string }> {
  const deadline = Date.now() + LIST_QUERY_TIMEOUT_MS;
  try {
    return { pending: await client.withDeadline(deadline, () => client.workflow.getHandle(workflowId).query(pendingApprovalsQuery)) };
  } catch (err) {
    if (!(err instanceof Error)) return { failure: String(err) };
    // A little early too: the call's own timer, not this clock, ends it.
    if (Date.now() >= deadline - 100) return { failure: `${err.message}: no answer within ${LIST_QUERY_TIMEOUT_MS / 1000} s` };
    const cause = err.cause as { details?: string; message?: string } | undefined;
    const detail = cause?.details || cause?.message;
    return { failure: detail ? `${err.message}: ${detail}` : err.message };
  }
}

/**
 * listWaiting, and the waiting runs it could not read (`unreadable`): their memo is encrypted with keys this
 * process lacks, or holds no list and the run did not answer, so what they wait for is not known here. A caller says
 * so rather than show less without a word.
 */
export async function waitingAcrossRuns(client: Client, filter: WaitingFilter = {}): Promise<WaitingListing> {
  const clauses = [RUNS, `ExecutionStatus = 'Running'`, `HitlStatus = 'AwaitingApproval'`];
  // No clause for the agent: a run of another agent may wait for a call of its sub-agent that is this one. The
  // filter applies to each call below: the agent whose call it is, or the agent of the run it is listed under.
  if (filter.workflowId) clauses.push(`WorkflowId = ${quote(filter.workflowId)}`);
  if (filter.tool) clauses.push(`HitlPendingTools = ${quote(filter.tool)}`);
  const infos: WorkflowExecutionInfo[] = [];
  const unreadable: UnreadableRun[] = [];
  for await (const info of listExecutions(client, clauses.join(' AND '))) {
    if (info.parentExecution) continue;
    // Its query answers would be sealed with the same keys: the run cannot be read here at all. Which agents its
    // calls are from is not known either; it is named when the run's own agent is the one asked for.
    const readable = info.memoUnreadable === undefined;
    if (!readable && (!filter.agent || info.typedSearchAttributes.get(HitlAgent) === filter.agent)) {
      unreadable.push({ workflowId: info.workflowId, reason: info.memoUnreadable! });
    }
    if (readable) infos.push(info);
  }
  const limit = pLimit(8);
  const perRun = await Promise.all(
    infos.map((info) =>
      limit(async () => {
        const memo = memoOf(info);
        const runAgent = info.typedSearchAttributes.get(HitlAgent) ?? '';
        const asked = Array.isArray(memo.pendingApprovals) ? { pending: memo.pendingApprovals } : await askPending(client, info.workflowId);
        if ('failure' in asked) {
          // What it waits for is not known here: said as for a run that cannot be decrypted.
          if (!filter.agent || runAgent === filter.agent) {
            unreadable.push({
              workflowId: info.workflowId,
              reason: `Its memo does not list its calls (too many for it), and it did not answer a query for them: ${asked.failure}`,
            });
          }
          return [];
        }
        return asked.pending
          .filter((p) => !filter.tool || p.toolName === filter.tool)
          .map((p) => toWaiting(p, info.workflowId, runAgent, memo))
          .filter((w) => !filter.agent || w.agent === filter.agent || runAgent === filter.agent);
      }),
    ),
  );
  return { waiting: perRun.flat().sort((a, b) => a.requestedAt.localeCompare(b.requestedAt)), unreadable };
}

export function toWaiting(
  raw: PendingApproval,
  workflowId: string,
  agent: string,
  memo: Pick<RunMemo, 'prompt' | 'requestedBy'>,
): WaitingApproval {
  // Memos written before the rename name a sub-agent call's owner `workflowId`.
  const { workflowId: legacyOwner, ...p } = raw as PendingApproval & { workflowId?: string };
  const owner = p.subAgentWorkflowId ?? legacyOwner;
  return {
    ...heldAsOf(p, Date.now()),
    ...(owner && { subAgentWorkflowId: owner }),
    approvalId: encodeApprovalId({ workflowId, callId: p.id }),
    workflowId,
    agent: p.agent ?? agent,
    userPrompt: memo.prompt ?? '',
    ...(memo.requestedBy && { requestedBy: memo.requestedBy }),
  };
}

/** The memo as far as it holds what the run writes (RunMemo). */
export function memoOf(info: { memo?: Record<string, unknown> }): RunMemo {
  return RunMemo.parse(info.memo ?? {});
}

function toSummary(info: WorkflowExecutionInfo): RunSummary | undefined {
  const attrs = info.typedSearchAttributes;
  const status = runStatusOf(attrs.get(HitlStatus), info.status.name);
  if (!status) return undefined;
  const memo = memoOf(info);
  const deadline = attrs.get(HitlNextDeadline);
  const open = info.status.name === 'RUNNING';
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    agent: attrs.get(HitlAgent),
    status,
    pendingCount: open ? (attrs.get(HitlPendingCount) ?? 0) : 0,
    pendingTools: open ? (attrs.get(HitlPendingTools) ?? []) : [],
    ...(open && deadline && { nextDeadline: deadline.toISOString() }),
    startTime: memo.startedAt ?? info.startTime.toISOString(),
    ...(info.closeTime && { closeTime: info.closeTime.toISOString() }),
    ...(memo.prompt && { prompt: memo.prompt }),
    ...(memo.requestedBy && { requestedBy: memo.requestedBy }),
  };
}

/** A visibility-query string literal. */
export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
