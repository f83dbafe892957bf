/**
 * What the client says when a run cannot answer for itself: a stuck run is shown from what Temporal knows (status,
 * prompt and pending calls as it last published them), and a decision for a finished run is refused as what it is.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { runStateQuery } from '../contract/messages.js';
import { runStatusOf } from '../contract/run-status.js';
import { HitlAgent, HitlStatus } from '../contract/search-attributes.js';
import { DecisionRefusedError, RunNotFoundError } from '../errors.js';
import type { DecideInput } from '../schemas/decision.js';
import type { RunProblem } from '../schemas/run-problem.js';
import type { RunState } from '../schemas/run-state.js';
import { memoOf } from './run-lists.js';

/** A stuck run as visibility shows it, with the problem said plainly. */
export async function stuckView(handle: WorkflowHandle, problem: RunProblem): Promise<RunState> {
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

/** A decision for a finished run: refused as already decided when the run had decided that call, else as closed. */
export async function closedRunRefusal(temporal: Client, workflowId: string, input: DecideInput): Promise<Error> {
  const handle = temporal.workflow.getHandle(workflowId);
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
