/**
 * A run as a list across runs sees one whose calls are too many for its memo while no worker answers for it: waiting
 * by its search attributes, `tooLarge` in its memo (as src/workflows/run-visibility.ts writes it), on a task queue
 * no worker polls, so the query a list falls back to fails. Terminate it when done.
 */
import { HitlAgent, HitlStatus } from '../../src/contract/search-attributes.js';
import { WORKFLOW_TYPE } from '../../src/contract/task-queue.js';
import type { Harness } from './harness.js';

export async function startUnansweringRun(h: Harness, agent: string): Promise<{ workflowId: string; end: () => Promise<void> }> {
  const workflowId = `${agent}-unanswering-${Date.now()}`;
  const handle = await h.temporal.client.workflow.start(WORKFLOW_TYPE, {
    workflowId,
    taskQueue: `${h.taskQueue}-nobody-polls`,
    args: [],
    memo: { pendingApprovals: { tooLarge: true } },
    typedSearchAttributes: [
      { key: HitlStatus, value: 'AwaitingApproval' },
      { key: HitlAgent, value: agent },
    ],
  });
  return { workflowId, end: async () => void (await handle.terminate('test done')) };
}
