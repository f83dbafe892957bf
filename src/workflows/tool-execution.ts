/** Settles one call: runs the tool (as the model asked, or as a human edited it), or answers for it. */
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { isCancellation } from '@temporalio/workflow';
import { ToolFailedError } from '../errors/tool-failed-error.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import { toolSpecs } from '../tools/registry.js';
import { toolActivities } from './activities.js';
import type { AgentRun } from './agent-run.js';
import { awaitDecision } from './approval-gate.js';
import type { CallRecord } from './call-record.js';
import { editedNote, rejectedMessage, timedOutMessage, toolErrorMessage } from './tool-messages.js';

export async function settleCall(run: AgentRun, record: CallRecord): Promise<void> {
  if (!record.gate) {
    record.result = await runTool(run, record.id, record.toolName, record.args ?? record.rawArgs);
    return;
  }
  const resolution = await awaitDecision(run, record);
  switch (resolution.kind) {
    case 'approve':
      record.result = await runTool(run, record.id, record.toolName, record.args!);
      return;
    case 'edit': {
      const output = await runTool(run, record.id, resolution.toolName, resolution.args);
      record.result = `${editedNote(record.toolName, resolution.toolName, resolution.args)}\n${output}`;
      return;
    }
    case 'reject':
      record.result = rejectedMessage(record.toolName, resolution.message, resolution.via === 'sticky');
      return;
    case 'respond':
      record.result = resolution.message;
      return;
    case 'timeout':
      record.result = timedOutMessage(record.toolName, record.gate.timeoutMs);
      return;
  }
}

async function runTool(run: AgentRun, callId: string, name: string, args: string | ToolArgs): Promise<string> {
  const spec = run.snapshot!.tools.includes(name) ? toolSpecs[name] : undefined;
  try {
    const { content } = await toolActivities.executeTool.executeWithOptions(
      {
        summary: `tool ${name}`,
        startToCloseTimeout: spec?.timeout ?? '2m',
        ...(spec?.heartbeatTimeout && { heartbeatTimeout: spec.heartbeatTimeout }),
        retry: spec?.retry ?? { maximumAttempts: 3 },
      },
      [{ agent: run.agent, available: run.snapshot!.tools, toolCallId: callId, name, args, context: run.input.context }],
    );
    return content;
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    const reason = err.cause instanceof ApplicationFailure || err.cause instanceof Error ? err.cause.message : err.message;
    if (spec?.onError === 'fail') throw new ToolFailedError(name, callId, reason);
    return toolErrorMessage(reason);
  }
}
