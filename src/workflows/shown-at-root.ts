/**
 * Where this run's calls are shown: a sub-agent's calls are decided through the top-level run, which shows them as
 * `<the sub-agent's path>/<id>`; a sub-agent's workflow id is its path under the top-level run's (sub-agents.ts).
 * Decision tokens bind to that run and that id, and webhook events name the approval by them.
 */
import { workflowInfo } from '@temporalio/workflow';
import { subAgentPath } from '../contract/sub-agent-ids.js';

export function shownAtRoot(): { rootWorkflowId: string; shownIdPrefix: string } {
  const { workflowId, root } = workflowInfo();
  const rootWorkflowId = root?.workflowId ?? workflowId;
  const path = subAgentPath(rootWorkflowId, workflowId);
  return { rootWorkflowId, shownIdPrefix: path ? `${path}/` : '' };
}
