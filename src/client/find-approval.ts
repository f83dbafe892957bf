/**
 * One waiting call by its global approval id, with its arguments whole, while it still waits. A stuck run's call
 * comes from what the run last published, with the problem. A call announced again (a changed world, lapsed
 * consent, an edit into another tool) is not found under its old id, and the refusal names the new one.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { announcedAgainAs } from '../contract/call-ids.js';
import { subAgentPath } from '../contract/sub-agent-ids.js';
import { pendingApprovalQuery, pendingApprovalsQuery } from '../contract/messages.js';
import { HitlAgent } from '../contract/search-attributes.js';
import { ApprovalNotFoundError } from '../errors.js';
import type { WaitingApproval } from '../schemas/waiting-approval.js';
import { decodeApprovalId, encodeApprovalId } from '../contract/approval-id.js';
import { endedAs } from './ended-run.js';
import { diagnoseRun, type HealthOptions } from './run-health.js';
import { memoOf, toWaiting } from './run-lists.js';
import { stuckView } from './stuck-view.js';

export async function findApproval(temporal: Client, approvalId: string, health: HealthOptions): Promise<WaitingApproval> {
  const ref = decodeApprovalId(approvalId);
  if (!ref) throw new ApprovalNotFoundError(approvalId, 'it is not a valid approval id');
  const handle = temporal.workflow.getHandle(ref.workflowId);
  const notWaiting = () => new ApprovalNotFoundError(approvalId, `call ${ref.callId} is not waiting for a decision`);
  try {
    const description = await handle.describe();
    const root = description.rootExecution?.workflowId;
    const path = root ? subAgentPath(root, ref.workflowId) : '';
    // A sub-agent's calls are decided through the top-level run, which shows them under the sub-agent's path and to
    // which decision tokens are bound: deciding here would race the parent's own decision (sub-agent-mirror.ts).
    if (root && path) {
      const shown = encodeApprovalId({ workflowId: root, callId: `${path}/${ref.callId}` });
      throw new ApprovalNotFoundError(
        approvalId,
        `call ${ref.callId} belongs to a sub-agent: decide it through its top-level run, as approval ${shown}`,
      );
    }
    const problem = await diagnoseRun(temporal, handle, { ...health, description });
    const agent = description.typedSearchAttributes.get(HitlAgent) ?? '';
    if (problem) {
      const call = (await stuckView(temporal, handle, problem)).pending.find((p) => p.id === ref.callId);
      if (!call) throw notWaiting();
      return { ...toWaiting(call, ref.workflowId, agent, memoOf(description)), problem };
    }
    const ended = endedAs(description);
    if (ended) throw new ApprovalNotFoundError(approvalId, `run ${ref.workflowId} has ended (${ended}): nothing waits for a decision`);
    const call = await handle.query(pendingApprovalQuery, ref.callId);
    if (call) return toWaiting(call, ref.workflowId, agent, memoOf(description));
    const pending = await handle.query(pendingApprovalsQuery).catch(() => []);
    const again = announcedAgainAs(
      ref.callId,
      pending.map((p) => p.id),
    );
    if (!again) throw notWaiting();
    const next = encodeApprovalId({ workflowId: ref.workflowId, callId: again });
    throw new ApprovalNotFoundError(approvalId, `call ${ref.callId} waits again as ${again} (approval ${next})`);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new ApprovalNotFoundError(approvalId, `run ${ref.workflowId} does not exist`);
    throw err;
  }
}
