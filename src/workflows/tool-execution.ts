/** Settles one call: runs the tool (as the model asked, or as a human edited it), or answers for it. */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/common';
import { isCancellation, patched } from '@temporalio/workflow';
import { ToolFailedError } from '../errors/tool-failed-error.js';
import type { CallRecord } from '../schemas/call-record.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import { DEFAULT_TOOL_HEARTBEAT_TIMEOUT } from '../tools/define-tool.js';
import { toolSpecs } from '../tools/registry.js';
import { localToolActivities, toolActivities } from './activities.js';
import type { AgentRun } from './agent-run.js';
import { describeForApprovers } from './approval-description.js';
import { awaitDecision } from './approval-gate.js';
import { runSubAgent } from './sub-agents.js';
import { editedNote, rejectedMessage, timedOutMessage, toolErrorMessage } from './tool-messages.js';
import { applyStanding } from './run-decisions.js';

export async function settleCall(run: AgentRun, record: CallRecord): Promise<void> {
  if (record.status === 'done') return;
  if (!record.gate) {
    record.result = await runTool(run, record, record.toolName, record.args ?? record.rawArgs);
  } else {
    if (!record.pending && !record.resolution) await announceWithToolDescription(run, record);
    const resolution = await awaitDecision(run, record);
    switch (resolution.kind) {
      case 'approve':
        record.result = await runTool(run, record, record.toolName, record.args!);
        break;
      case 'edit':
        record.result = `${editedNote(record.toolName, resolution.toolName, resolution.args)}\n${await runTool(run, record, resolution.toolName, resolution.args)}`;
        break;
      case 'reject':
        record.result = rejectedMessage(record.toolName, resolution.message, resolution.via === 'sticky');
        break;
      case 'respond':
        record.result = resolution.message;
        break;
      case 'timeout':
        record.result = timedOutMessage(record.toolName, record.gate.timeoutMs);
        break;
    }
  }
  record.status = 'done';
}

async function announceWithToolDescription(run: AgentRun, record: CallRecord): Promise<void> {
  record.status = 'running';
  const description = await describeForApprovers(run, record);
  record.status = 'waiting';
  // An "always" decision for this tool may have come while the description was being written.
  const standing = run.sticky.get(record.toolName);
  if (standing) return applyStanding(run, record, standing);
  run.announce(record, description);
  run.notifications.send('approval.requested', record.pending!);
  run.publish(run.activity);
}

/**
 * Local tool activities came after runs had paused with regular ones. The patch marker is written only by a run
 * that calls a local tool, so a run recorded before keeps replaying its calls as regular activities.
 */
export const LOCAL_TOOLS_PATCH = 'local-tool-activities';

function runsLocally(spec: { local?: boolean } | undefined): boolean {
  return spec?.local === true && patched(LOCAL_TOOLS_PATCH);
}

async function runTool(run: AgentRun, record: CallRecord, name: string, args: string | ToolArgs): Promise<string> {
  const spec = run.snapshot!.tools.includes(name) ? toolSpecs[name] : undefined;
  record.status = 'running';
  try {
    if (spec?.agent && typeof args !== 'string') return await runSubAgent(run, record.id, spec.agent, args);
    const input = { agent: run.agent, available: run.snapshot!.tools, toolCallId: record.id, name, args, context: run.input.context };
    const common = { summary: `tool ${name}`, startToCloseTimeout: spec?.timeout ?? '2m', retry: spec?.retry ?? { maximumAttempts: 3 } };
    const { content } = runsLocally(spec)
      ? await localToolActivities.executeTool.executeWithOptions(common, [input])
      : await toolActivities.executeTool.executeWithOptions(
          { ...common, heartbeatTimeout: spec?.heartbeatTimeout ?? DEFAULT_TOOL_HEARTBEAT_TIMEOUT },
          [input],
        );
    return content;
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure || err instanceof ChildWorkflowFailure)) throw err;
    const reason = err.cause instanceof ApplicationFailure || err.cause instanceof Error ? err.cause.message : err.message;
    if (spec?.onError === 'fail') throw new ToolFailedError(name, record.id, reason);
    return toolErrorMessage(reason);
  }
}
