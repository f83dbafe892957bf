/**
 * Tools can write the text approvers read (`describe: true`), looking up what the arguments alone do not say:
 * "Refund 75000 of 75000 paid for order 1234 (Ada Lovelace, open)". This arrived after runs were already
 * paused, so it is behind a patch (src/workflows/patches.ts): a run that announced its calls before the change replays exactly as it
 * ran, and only new runs call the describing activity. See README, "Changing workflow code".
 */
import { log } from '@temporalio/workflow';
import type { AgentSnapshot } from '../schemas/agent-snapshot.js';
import type { CallRecord } from '../schemas/call-record.js';
import { toolSpecs } from '../tools/registry.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { toolWrittenDescription } from './description-bound.js';
import { PATCHES, takesPatch } from './patches.js';

/**
 * Whether this gated call waits for its tool's own description before it is announced to approvers. `toolName`:
 * the tool asked for, when it is not the model's (a call an approver proposed by an edit).
 */
export function describedByTool(snapshot: AgentSnapshot, record: CallRecord, toolName = record.toolName): boolean {
  // Which tools describe themselves is recorded when the run starts (runs from before that record: the code's).
  const describes = snapshot.describedTools ? snapshot.describedTools.includes(toolName) : toolSpecs[toolName]?.describe === true;
  return describes && !record.gate?.descriptionFromPolicy && takesPatch(PATCHES.toolDescriptions);
}

/** The tool's sentence after the policy's prefix; the default text if the tool cannot say (approvers must never wait on it). */
export async function describeForApprovers(
  run: AgentRun,
  record: CallRecord,
  call: { toolName: string; args: Record<string, unknown> } = { toolName: record.toolName, args: record.args! },
): Promise<string> {
  try {
    const text = await activities.describeCall.executeWithOptions({ ...ACTIVITY_OPTIONS.describe, summary: `describe ${call.toolName}` }, [
      { agent: run.agent, name: call.toolName, args: call.args, toolCallId: record.id, context: run.input.context },
    ]);
    if (typeof text === 'string' && text) return toolWrittenDescription(run.policy.descriptionPrefix, text);
  } catch (err) {
    log.warn('could not describe a call for approvers', { toolName: call.toolName, error: String(err) });
  }
  return record.gate!.description;
}
