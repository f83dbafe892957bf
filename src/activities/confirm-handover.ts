import { Context } from '@temporalio/activity';
import { handedOverEventsQuery } from '../contract/handed-over-query.js';
import { WORKFLOW_TYPE } from '../contract/task-queue.js';
import type { NotificationEvent } from '../schemas/notification-event.js';

export interface ConfirmHandoverInput {
  workflowId: string;
  runId: string;
  eventIds: string[];
}

/**
 * The events a run handed to the delivery workflow it started, as the run itself gives them (a query, answered by
 * replaying the closed run), or why there are none to send: the parent is not one of our runs on this task queue.
 */
export function createConfirmHandover() {
  return {
    async confirmHandedOverEvents({
      workflowId,
      runId,
      eventIds,
    }: ConfirmHandoverInput): Promise<{ events: NotificationEvent[] } | { refused: string }> {
      const { client, info } = Context.current();
      const handle = client.workflow.getHandle(workflowId, runId);
      const { type, taskQueue } = await handle.describe();
      if (type !== WORKFLOW_TYPE || taskQueue !== info.taskQueue) {
        return { refused: `its parent ${workflowId} is a ${type} on ${taskQueue}, not an agent run on ${info.taskQueue}` };
      }
      return { events: await handle.query(handedOverEventsQuery, eventIds) };
    },
  };
}
