/** Settles one call: runs the tool (as the model asked, or as a human edited it), or answers for it. */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, TimeoutFailure } from '@temporalio/common';
import { CancellationScope, isCancellation } from '@temporalio/workflow';
import type { CallRecord } from '../schemas/call-record.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { ToolSpec } from '../tools/define-tool.js';
import { toolSpecs } from '../tools/registry.js';
import { activities, localActivities, toolOptions } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { StartMissed } from './consent.js';
import { answerGated } from './gated-call.js';
import { callMcpTool, mcpToolOf } from './mcp-tools.js';
import { PATCHES, takesPatch } from './patches.js';
import { runSubAgent, SUB_AGENT_ID_TAKEN, SUB_AGENT_ID_TOO_LONG, SUB_AGENT_PROMPT_BLANK } from './sub-agents.js';
import { answerToolFailure } from './tool-errors.js';

export async function settleCall(run: AgentRun, record: CallRecord, ownIds: boolean): Promise<void> {
  if (record.status === 'done') return;
  const content = await answer(run, record, ownIds);
  run.book.finish(record, content);
  run.events.callFinished(record.id, content);
}

async function answer(run: AgentRun, record: CallRecord, ownIds: boolean): Promise<string> {
  if (record.problem) return record.problem;
  if (!record.gate) return runTool(run, record, record.toolName, record.args ?? record.rawArgs, ownIds);
  return answerGated(run, record, ownIds, (name, args, startWithinMs) => runTool(run, record, name, args, ownIds, startWithinMs));
}

/**
 * Local tool activities came after runs had paused with regular ones. The patch marker is written only by a run
 * that calls a local tool, so a run recorded before keeps replaying its calls as regular activities.
 */
function runsLocally(spec: ToolSpec | undefined): boolean {
  return spec?.local === true && takesPatch(PATCHES.localTools);
}

/**
 * A local activity's non-retryable failure reaches the workflow as the bare ApplicationFailure, not wrapped in an
 * ActivityFailure: it is the tool's failure all the same (a ToolRefusedError from read_data used to fail the run).
 * Runs that failed that way before replay the old way: the patch marker is written only when it is handled.
 */
function isToolFailure(err: unknown, local: boolean): err is ActivityFailure | ChildWorkflowFailure | ApplicationFailure {
  if (err instanceof ActivityFailure || err instanceof ChildWorkflowFailure) return true;
  const notStarted = [SUB_AGENT_ID_TAKEN, SUB_AGENT_ID_TOO_LONG, SUB_AGENT_PROMPT_BLANK];
  if (err instanceof ApplicationFailure && notStarted.includes(err.type ?? '')) return true;
  return local && err instanceof ApplicationFailure && takesPatch(PATCHES.localToolFailures);
}

/**
 * A sub-agent cancelled by someone else than this run (`temporal workflow cancel` on it, while this run is not being
 * cancelled): its call's failure, which the model is told of, as of a sub-agent terminated. It failed the run, and
 * the run's other sub-agents were terminated with it (patch subAgentCancelIsToolFailure).
 */
function cancelledOnItsOwn(err: unknown): boolean {
  return (
    err instanceof ChildWorkflowFailure &&
    !CancellationScope.current().consideredCancelled &&
    takesPatch(PATCHES.subAgentCancelIsToolFailure)
  );
}

/** @param startWithinMs what is left of the approval's validity: the activity must start within it (else StartMissed) */
async function runTool(
  run: AgentRun,
  record: CallRecord,
  name: string,
  args: string | ToolArgs,
  ownIds: boolean,
  startWithinMs?: number,
): Promise<string> {
  const spec = run.snapshot.tools.includes(name) ? toolSpecs[name] : undefined;
  const mcp = mcpToolOf(run.snapshot, name);
  run.book.markRunning(record);
  run.events.callStarted(record.id, name);
  let local = false;
  try {
    // Calls reach here with arguments already checked against the recorded schema (invalid ones never do).
    // Listings held back for this decided call: its activity wakes the run if it runs long (a local one never does).
    const listingsDueInMs = run.visibility.listingsDueInMs;
    if (mcp && typeof args !== 'string') return await callMcpTool(run.agent, record.id, mcp, args, listingsDueInMs);
    if (spec?.agent && typeof args !== 'string') return await runSubAgent(run, record.id, spec.agent, args, ownIds);
    local = runsLocally(spec);
    const input = {
      agent: run.agent,
      available: run.snapshot.tools,
      toolCallId: record.id,
      name,
      args,
      context: run.input.context,
      ...(!local && listingsDueInMs !== undefined && { listingsDueInMs }),
    };
    const options = {
      ...toolOptions(spec, local),
      ...(startWithinMs !== undefined && { scheduleToStartTimeout: startWithinMs }),
      summary: `tool ${name}`,
    };
    const { content } = local
      ? await run.visibility.duringLocalActivity(() => localActivities.executeTool.executeWithOptions(options, [input]))
      : await activities.executeTool.executeWithOptions(options, [input]);
    return typeof content === 'string' ? content : String(content);
  } catch (err) {
    if ((isCancellation(err) && !cancelledOnItsOwn(err)) || !isToolFailure(err, local)) throw err;
    const cause = err instanceof ApplicationFailure ? undefined : err.cause;
    if (startWithinMs !== undefined && cause instanceof TimeoutFailure && cause.timeoutType === 'SCHEDULE_TO_START')
      throw new StartMissed();
    const rule = run.snapshot.toolErrors?.[name] ?? spec?.onError;
    return answerToolFailure(rule, err, { toolName: name, callId: record.id });
  }
}
