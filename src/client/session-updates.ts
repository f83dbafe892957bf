/** A session's `message` and `end` updates, and what their failures mean for the sender. */
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { InvalidMessageError, MessageQueueFullError, RunBusyError, RunNotFoundError, SessionClosedError } from '../errors.js';
import { failedWhileApplying } from './decision-refusals.js';
import { movableRun } from './followed-run.js';
import { NotRequesterError, RunStuckError } from './run-errors.js';
import { isRunBusy, sendWhileBusy } from './run-busy.js';
import type { HealthOptions } from './run-health.js';

const NOT_SENT = 'it cannot take a message or an end now: nothing was sent';

/**
 * Sends a session's update, once the workflow id is known as an agent run that can move: to a stuck run the update
 * would wait for a worker that is not there, or fail untyped with the run's workflow task.
 * @param caller who sends it, when known (the API's token): refused unless the run has no requester or is theirs
 */
export async function sendSessionUpdate<T>(
  temporal: Client,
  workflowId: string,
  send: () => Promise<T>,
  health: HealthOptions = {},
  caller?: string,
): Promise<T> {
  const description = await movableRun(temporal, workflowId, NOT_SENT, health).catch((err: unknown) => {
    // Not there: the update says whether it never was or has finished, as before.
    if (!(err instanceof RunNotFoundError)) throw err;
  });
  // The requester as the run proved it (its memo, which every run of its chain has since it began).
  const requester = description?.memo?.requestedBy;
  if (caller !== undefined && typeof requester === 'string' && requester !== caller) throw new NotRequesterError(workflowId, requester);
  try {
    return await sendWhileBusy(send);
  } catch (err) {
    if (isRunBusy(err)) throw new RunBusyError(workflowId);
    // It got stuck meanwhile: its workflow task failed with this update.
    if (failedWhileApplying(err)) {
      await movableRun(temporal, workflowId, NOT_SENT, health);
      throw new RunStuckError(workflowId, `Run ${workflowId}'s workflow task failed while taking this: nothing was recorded.`);
    }
    if (err instanceof WorkflowUpdateFailedError) {
      const cause = err.cause as { type?: string; message?: string } | undefined;
      if (cause?.type === InvalidMessageError.errorName) throw new InvalidMessageError(cause.message ?? err.message);
      if (cause?.type === MessageQueueFullError.errorName) throw new MessageQueueFullError(workflowId, cause.message ?? err.message);
      throw new SessionClosedError(workflowId, cause?.message ?? err.message);
    }
    if (err instanceof WorkflowNotFoundError) {
      if (await hasFinished(temporal, workflowId)) throw new SessionClosedError(workflowId, 'the run has finished.');
      throw new RunNotFoundError(workflowId);
    }
    throw err;
  }
}

/** Updates to a finished run fail as "not found"; tell that apart from a run that never existed. */
function hasFinished(temporal: Client, workflowId: string): Promise<boolean> {
  return temporal.workflow
    .getHandle(workflowId)
    .describe()
    .then(
      (d) => d.status.name !== 'RUNNING',
      () => false,
    );
}
