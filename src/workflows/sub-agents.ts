/**
 * An agent used as a tool runs as a child workflow under its own policy. Its pending calls are mirrored into the
 * parent (see `SubAgentMirror`), decisions sent to the parent are passed on to it, and cancelling the parent
 * cancels it.
 */
import { ApplicationFailure, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ChildWorkflowCancellationType, executeChild, workflowInfo } from '@temporalio/workflow';
import { blankPromptProblem } from '../bounds/blank-text.js';
import { utf8Length } from '../bounds/truncate.js';
import { TEMPORAL_ID_MAX_BYTES } from '../contract/limits.js';
import { WORKFLOW_TYPE } from '../contract/task-queue.js';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { AgentResult } from '../schemas/run-state.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { AgentRun } from './agent-run.js';
import { noteVerdicts } from './forwarded-decisions.js';
import { PATCHES, takesPatch } from './patches.js';
import { summaryText } from './summary-text.js';

export function subAgentWorkflowId(parentWorkflowId: string, callId: string): string {
  return `${parentWorkflowId}/${callId}`;
}

/** The error type of a sub-agent that could not start: a running workflow holds its id. */
export const SUB_AGENT_ID_TAKEN = 'SubAgentIdTaken';
/** The error type of a sub-agent that could not start: its id would be longer than Temporal takes. */
export const SUB_AGENT_ID_TOO_LONG = 'SubAgentIdTooLong';

function idTooLong(childId: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: SUB_AGENT_ID_TOO_LONG,
    message: `the sub-agent could not start: its workflow id would be ${utf8Length(childId)} bytes (this run's id and the call's), over Temporal's ${TEMPORAL_ID_MAX_BYTES}`,
    nonRetryable: true,
  });
}

/**
 * Another running workflow holds the id a sub-agent would take (started by someone else, or left running by a
 * reset of this run). It failed this run with "Workflow execution already started" and took its other calls with
 * it; it is the call's failure now, answered by the tool's `onError` rule like a failed sub-agent.
 */
function idTaken(childId: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: SUB_AGENT_ID_TAKEN,
    message: `the sub-agent could not start: a running workflow already has its id "${childId}"`,
    nonRetryable: true,
  });
}

/** The error type of a sub-agent not started because the model's prompt for it says nothing (blank-text.ts). */
export const SUB_AGENT_PROMPT_BLANK = 'SubAgentPromptBlank';

/** @param ownIds the sub-agent's calls show here as `<callId>/<their id>` (runs with our own call ids). */
export async function runSubAgent(run: AgentRun, callId: string, agent: string, args: ToolArgs, ownIds: boolean): Promise<string> {
  const { workflowId, taskQueue } = workflowInfo();
  const childId = subAgentWorkflowId(workflowId, callId);
  // A run started straight through Temporal may have an id of up to 1,000 bytes, and each level of sub-agents adds
  // to it. Refused here, it is the call's failure; asked of the server, it failed the workflow task on every retry.
  if (utf8Length(childId) > TEMPORAL_ID_MAX_BYTES) throw idTooLong(childId);
  // The child would refuse it at its start (patch blankUserMessagesRefused): told here, the model hears why at once.
  if (takesPatch(PATCHES.blankUserMessagesRefused) && blankPromptProblem(String(args.prompt))) {
    throw ApplicationFailure.create({
      type: SUB_AGENT_PROMPT_BLANK,
      message:
        'the sub-agent was not started: the prompt for it says nothing (only spaces, line breaks or characters that print as nothing)',
      nonRetryable: true,
    });
  }
  if (ownIds) run.children.name(childId, callId);
  const input: AgentWorkflowInput = {
    agent,
    prompt: String(args.prompt),
    ...(run.input.requestedBy && { requestedBy: run.input.requestedBy }),
    ...(run.input.context && { context: run.input.context }),
    // The four-eyes rule follows the work down: the requester may not approve a sub-agent's calls either.
    ...(run.policy.fourEyes && { approval: { fourEyes: true } }),
  };
  // Reports are taken from this child only while this run waits for it (src/workflows/sub-agent-report.ts).
  const checked = takesPatch(PATCHES.checkedChildReports);
  if (checked) run.children.started(childId);
  let result: AgentResult;
  try {
    result = await executeChild<(input: AgentWorkflowInput) => Promise<AgentResult>>(WORKFLOW_TYPE, {
      workflowId: childId,
      taskQueue,
      args: [input],
      staticSummary: summaryText(`sub-agent ${agent} for ${run.agent}'s call ${callId}`),
      cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError && takesPatch(PATCHES.subAgentIdTakenIsToolFailure)) throw idTaken(childId);
    throw err;
  } finally {
    if (checked) noteVerdicts(run, run.children.ended(childId));
  }
  return result.structured !== undefined ? JSON.stringify(result.structured) : result.output;
}
