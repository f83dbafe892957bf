/**
 * What the client says about a stuck run, which cannot answer for itself: its view from what Temporal knows
 * (status, prompt and pending calls as the run last published them), and its problem in one line.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { runStatusOf } from '../contract/run-status.js';
import { HitlAgent, HitlStatus } from '../contract/search-attributes.js';
import { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { RunProblem } from '../schemas/run-problem.js';
import type { RunState } from '../schemas/run-state.js';
import { memoOf } from './run-lists.js';
import { rawStartInput } from './started-with.js';

/** A stuck run's view: its own state as last published, with the problem said plainly. */
export async function stuckView(client: Client, handle: WorkflowHandle, problem: RunProblem): Promise<RunState> {
  const info = await handle.describe();
  const memo = memoOf(info);
  // A run that never ran (no worker ever took it) published nothing: what it was started with says the rest.
  const started = memo.prompt === undefined ? await startInput(client, handle.workflowId, info.runId).catch(() => undefined) : undefined;
  const requestedBy = memo.requestedBy ?? started?.requestedBy;
  return {
    status: runStatusOf(info.typedSearchAttributes.get(HitlStatus), info.status.name) ?? 'Running',
    step: 0,
    agent: info.typedSearchAttributes.get(HitlAgent) ?? started?.agent ?? '',
    prompt: memo.prompt ?? started?.prompt ?? '',
    ...(requestedBy && { requestedBy }),
    messages: [],
    messagesFrom: 0,
    pending: Array.isArray(memo.pendingApprovals) ? memo.pendingApprovals : [],
    decisions: [],
    decisionsFrom: 0,
    policyOutcomes: [],
    usage: { promptTokens: 0, completionTokens: 0 },
    previousRunIds: [],
    queuedMessages: 0,
    problem,
  };
}

/** What one line of a problem says: the kind, and the failure when there is one. */
export function problemHeadline(problem: RunProblem): string {
  return problem.kind === 'no_worker'
    ? 'no worker polls its task queue'
    : `its workflow task keeps failing (${problem.attempts} attempts)${problem.failure ? `: ${problem.failure}` : ''}`;
}

/** The input a run was started with, when it is one a run takes. */
async function startInput(client: Client, workflowId: string, runId: string): Promise<AgentWorkflowInput | undefined> {
  const parsed = AgentWorkflowInput.safeParse(await rawStartInput(client, workflowId, runId));
  return parsed.success ? parsed.data : undefined;
}
