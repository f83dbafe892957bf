/**
 * Cancelling a run: Temporal's cancellation request, which the run takes as a cancel of whatever it waits for (its
 * calls' waits, tools, sub-agents) and ends `Canceled`, cleanly, with its audit log. Refused with a typed error for
 * what is not an open agent run, and, from a known caller (the API's token), for a run someone else asked for.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { RunNotFoundError } from '../errors.js';
import { agentRunDescription } from './followed-run.js';
import { NotRequesterError, RunClosedError } from './run-errors.js';

/** @param caller who asks, when known: refused unless the run has no requester or is theirs */
export async function cancelRun(temporal: Client, workflowId: string, caller?: string): Promise<{ cancelling: true }> {
  const description = await agentRunDescription(temporal, workflowId);
  if (description.status.name !== 'RUNNING') throw new RunClosedError(workflowId, description.status.name);
  // The requester as the run proved it (its memo, as for a session's messages).
  const requester = description.memo?.requestedBy;
  if (caller !== undefined && typeof requester === 'string' && requester !== caller) throw new NotRequesterError(workflowId, requester);
  try {
    await temporal.workflow.getHandle(workflowId).cancel();
  } catch (err) {
    // It closed meanwhile.
    if (err instanceof WorkflowNotFoundError) {
      const now = await temporal.workflow
        .getHandle(workflowId)
        .describe()
        .catch(() => undefined);
      if (!now) throw new RunNotFoundError(workflowId);
      throw new RunClosedError(workflowId, now.status.name);
    }
    throw err;
  }
  return { cancelling: true };
}
