/** A session's `message` and `end` updates, and what their failures mean for the sender. */
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { InvalidMessageError, MessageQueueFullError, RunBusyError, RunNotFoundError, SessionClosedError } from '../errors.js';
import { isRunBusy, sendWhileBusy } from './run-busy.js';

export async function sendSessionUpdate<T>(temporal: Client, workflowId: string, send: () => Promise<T>): Promise<T> {
  try {
    return await sendWhileBusy(send);
  } catch (err) {
    if (isRunBusy(err)) throw new RunBusyError(workflowId);
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
