/**
 * An agent used as a tool runs as a child workflow under its own policy. Its pending calls are mirrored into
 * the parent (see `AgentRun.mirrorChild`), decisions sent to the parent are forwarded to it, and cancelling the
 * parent cancels it.
 */
import { ChildWorkflowCancellationType, executeChild, workflowInfo } from '@temporalio/workflow';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { AgentResult } from '../schemas/run-state.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { AgentRun } from './agent-run.js';

export function subAgentWorkflowId(parentWorkflowId: string, callId: string): string {
  return `${parentWorkflowId}/${callId}`;
}

export async function runSubAgent(run: AgentRun, callId: string, agent: string, args: ToolArgs): Promise<string> {
  const { workflowId, taskQueue } = workflowInfo();
  const input: AgentWorkflowInput = {
    agent,
    prompt: String(args.prompt),
    ...(run.input.requestedBy && { requestedBy: run.input.requestedBy }),
    ...(run.input.context && { context: run.input.context }),
    // The four-eyes rule follows the work down: the requester may not approve a sub-agent's calls either.
    ...(run.policy.fourEyes && { approval: { fourEyes: true } }),
  };
  const result = await executeChild<(input: AgentWorkflowInput) => Promise<AgentResult>>('agentWorkflow', {
    workflowId: subAgentWorkflowId(workflowId, callId),
    taskQueue,
    args: [input],
    staticSummary: `sub-agent ${agent} for ${run.agent}'s call ${callId}`,
    cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
  return result.structured !== undefined ? JSON.stringify(result.structured) : result.output;
}
