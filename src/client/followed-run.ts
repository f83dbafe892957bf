/**
 * What the client checks before it reads a run, from Temporal's description of it rather than from how a query
 * fails: that the workflow id names an agent run (another workflow, such as the store's, answers none of a run's
 * queries and updates), and, where a reader cannot wait, that it can move now (a query to a run no worker polls
 * fails only after Temporal's own timeout, as if Temporal were unreachable). A subscriber may wait: its run goes on
 * once a worker polls, so `subscribeRun` checks only the type.
 */
import { WorkflowNotFoundError, type Client, type WorkflowExecutionDescription } from '@temporalio/client';
import { WORKFLOW_TYPE } from '../contract/task-queue.js';
import { RunNotFoundError } from '../errors.js';
import { NotAnAgentRunError, RunStuckError } from './run-errors.js';
import { diagnoseRun, type HealthOptions } from './run-health.js';
import { problemHeadline } from './stuck-view.js';

/** Throws NotAnAgentRunError unless the described workflow is an agent run (sub-agents' and continued runs' type too). */
export function requireAgentRun(workflowId: string, description: WorkflowExecutionDescription): void {
  if (description.type !== WORKFLOW_TYPE) throw new NotAnAgentRunError(workflowId, description.type);
}

/** The run's description, when the workflow id names an agent run: RunNotFoundError or NotAnAgentRunError otherwise. */
export async function agentRunDescription(client: Client, workflowId: string): Promise<WorkflowExecutionDescription> {
  let description: WorkflowExecutionDescription;
  try {
    description = await client.workflow.getHandle(workflowId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new RunNotFoundError(workflowId);
    throw err;
  }
  requireAgentRun(workflowId, description);
  return description;
}

/**
 * The run's description, when it is an agent run that can move now; RunStuckError otherwise, with what `hitl show`
 * advises and `consequence` (what the caller's request came to). For a caller that cannot wait: a reader that must
 * ask the run where its stream is before it starts, a sender whose update would wait for a worker that is not there
 * or fail with the run's workflow task. A closed run is never stuck.
 */
export async function movableRun(
  client: Client,
  workflowId: string,
  consequence: string,
  health: HealthOptions = {},
): Promise<WorkflowExecutionDescription> {
  const description = await agentRunDescription(client, workflowId);
  const problem = await diagnoseRun(client, client.workflow.getHandle(workflowId), { ...health, description });
  if (problem) {
    throw new RunStuckError(
      workflowId,
      `Run ${workflowId} is stuck since ${problem.since}: ${problemHeadline(problem)}, so ${consequence}. ${problem.advice[0]}`,
    );
  }
  return description;
}

/** A run to follow now (movableRun): following a stuck one would only wait. */
export function followableRun(client: Client, workflowId: string, health: HealthOptions = {}): Promise<WorkflowExecutionDescription> {
  return movableRun(client, workflowId, 'following it would only wait', health);
}
