/**
 * Why a decision was not recorded, when the run itself could not say: it is stuck, its workflow task failed while
 * applying the decision, or it has finished (and had perhaps decided that call already). Or why it was not sent:
 * too large for any run.
 */
import { isGrpcServiceError, ServiceError, type Client } from '@temporalio/client';
import { decisionInputTooLarge } from '../contract/decision-size.js';
import { runStateQuery } from '../contract/messages.js';
import { DecisionRefusedError, RunNotFoundError } from '../errors.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { DecideInput } from '../schemas/decision.js';
import type { RunProblem } from '../schemas/run-problem.js';
import { AgentResult } from '../schemas/run-state.js';
import { lastTaskFailureMessage } from './run-health.js';
import { problemHeadline } from './stuck-view.js';

/** Refused before it is sent, with the words the run would use (src/contract/decision-size.ts says why). */
export function refuseIfTooLarge(input: DecideInput): void {
  const tooLarge = decisionInputTooLarge(input);
  if (tooLarge) throw new DecisionRefusedError('too_large', tooLarge);
}

export function stuckRefusal(workflowId: string, problem: RunProblem): DecisionRefusedError {
  return new DecisionRefusedError(
    'run_stuck',
    `Run ${workflowId} is stuck since ${problem.since}: ${problemHeadline(problem)}. Your decision was not recorded. ${problem.advice[0]}`,
  );
}

/** Temporal refuses an update whose workflow task failed: FAILED_PRECONDITION, "Workflow Task in failed state". */
export function failedWhileApplying(err: unknown): boolean {
  const cause = err instanceof ServiceError ? err.cause : err;
  return isGrpcServiceError(cause) && cause.code === 9 && /workflow task in failed state/i.test(cause.details ?? cause.message);
}

/** The workflow task that was to apply a decision failed: say what is wrong now, or why it failed, from history. */
export async function failedTaskRefusal(
  temporal: Client,
  workflowId: string,
  diagnose: () => Promise<RunProblem | undefined>,
): Promise<DecisionRefusedError> {
  const problem = await diagnose().catch(() => undefined);
  if (problem) return stuckRefusal(workflowId, problem);
  const { runId } = await temporal.workflow.getHandle(workflowId).describe();
  const failure = await lastTaskFailureMessage(temporal, workflowId, runId).catch(() => undefined);
  return new DecisionRefusedError(
    'run_stuck',
    `Run ${workflowId} could not take your decision: its workflow task failed while applying it${failure ? ` (${failure})` : ''}. ` +
      'Your decision was not recorded and the run waits as before; deciding again fails the same way until a worker with a fix is deployed.',
  );
}

/**
 * A decision for a finished run: refused as already decided when the run had decided that call, else as closed.
 * A completed run's result holds its audit log, read from history with no worker; any other closed run is asked by
 * query, which a worker must replay the run to answer and which can fail while the worker is busy: asked once more
 * before the refusal falls back to "closed", which would hide that the call was decided.
 */
export async function closedRunRefusal(temporal: Client, workflowId: string, input: DecideInput): Promise<Error> {
  const handle = temporal.workflow.getHandle(workflowId);
  const described = await handle.describe().catch(() => undefined);
  if (!described) return new RunNotFoundError(workflowId);
  const ids = new Set(input.decisions.flatMap((d) => (d.id ? [d.id] : [])));
  const queryState = () => handle.query(runStateQuery, {});
  const audit =
    described.status.name === 'COMPLETED'
      ? await handle.result().then(
          (result) => AgentResult.parse(result).decisions,
          () => undefined,
        )
      : undefined;
  const entries =
    audit ??
    (await queryState()
      .catch(() => new Promise((resolve) => setTimeout(resolve, 500)).then(queryState))
      .then(
        (state) => state.decisions,
        () => [],
      ));
  const decided = entries.find(
    (d, i) =>
      d.id && ids.has(d.id) && (d.outcome === 'applied' || (d.outcome === 'forwarded' && !refusedLater(entries.slice(i + 1), d.id))),
  );
  if (decided) {
    return new DecisionRefusedError(
      'already_decided',
      `${decided.id} was already decided (${decided.type}${decided.approver ? ` by ${decided.approver}` : ''}).`,
    );
  }
  return new DecisionRefusedError('run_closed', `Run ${workflowId} has finished; nothing is waiting for a decision.`);
}

/** A decision passed on was refused by the sub-agent that owns the call, or never reached it. */
function refusedLater(later: readonly AuditEntry[], id: string): boolean {
  return later.some((e) => e.id === id && (e.event === 'forward_refused' || e.event === 'forward_lost'));
}
