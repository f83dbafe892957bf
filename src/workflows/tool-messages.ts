/** What the model reads when a human (or a deadline) decided instead of the tool, and how results reach it. */
import { recutBytes, truncateBytes, utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import type { CallRecord } from '../schemas/call-record.js';
import type { ToolMessage } from '../schemas/chat-message.js';
import { PATCHES, takesPatch } from './patches.js';
import { runDuration } from './run-duration.js';

/** One tool message per closed call, in the model's order; together they stay within the step's budget. */
export function toolResultMessages(closed: readonly CallRecord[]): ToolMessage[] {
  const share = Math.max(1024, Math.floor(LIMITS.stepResultsBytes / Math.max(1, closed.length)));
  return closed.map((record) => {
    const text = record.note ? `${record.note}\n${record.result ?? ''}` : (record.result ?? '');
    // A tool's text its activity cut (to LIMITS.toolResultBytes) and cut again here ends with a marker that counts
    // both cuts (recutBytes). Only a result that fills that limit was cut there: a shorter one that ends like a marker
    // (a person's `respond` message, say) is counted as the text it is.
    const recut = utf8Length(text) > share && filledByCut(record.result) && takesPatch(PATCHES.recutCountsAll);
    const content = recut ? recutBytes(text, share) : truncateBytes(text, share);
    return { role: 'tool', tool_call_id: record.modelId ?? record.id, content };
  });
}

/** Whether a tool's result is as long as its activity's cut leaves a text (the marker's digits make it a few bytes short). */
function filledByCut(result: string | undefined): boolean {
  return result !== undefined && utf8Length(result) > LIMITS.toolResultBytes - 32;
}

/** @param reviewer set when an automatic reviewer rejected the call (`reviewer:<name>`) */
export function rejectedMessage(toolName: string, reason: string | undefined, always: boolean, reviewer?: string): string {
  const who = reviewer ? `the automatic ${reviewer}` : always ? 'an "always reject" decision of a human reviewer' : 'a human reviewer';
  return `Rejected by ${who}; ${toolName} did not run.${reason ? ` Reason: ${reason}` : ''}`;
}

export function ignoredMessage(toolName: string): string {
  return `A human reviewer chose to skip this call; ${toolName} did not run.`;
}

export function timedOutMessage(toolName: string, timeoutMs: number): string {
  return `No decision arrived within ${runDuration(timeoutMs, true)}: the approval timed out and ${toolName} did not run.`;
}

export function editedNote(originalTool: string, toolName: string, args: Record<string, unknown>): string {
  const what = toolName === originalTool ? 'edited the arguments' : `replaced this call with ${toolName}`;
  return `(A human reviewer ${what} before it ran: ${JSON.stringify(args)})`;
}

export function proposedNote(
  originalTool: string,
  proposal: { toolName: string; args: Record<string, unknown>; approver?: string },
  approvedBy?: string,
): string {
  const who = proposal.approver ? `A human reviewer, ${proposal.approver},` : 'A human reviewer';
  const approved = approvedBy ? `; ${approvedBy} approved it` : '';
  const what = proposal.toolName === originalTool ? 'edited the arguments' : `replaced this ${originalTool} call with ${proposal.toolName}`;
  return `(${who} ${what}${approved}: ${JSON.stringify(proposal.args)})`;
}

export function toolErrorMessage(message: string): string {
  return `Error: ${message}\n Please fix your mistakes.`;
}

export function maxStepsMessage(maxSteps: number): string {
  return `I stopped after ${maxSteps} steps, the limit for this run; more steps were needed to finish.`;
}

export function correctionRequest(error: string): string {
  return `Your answer does not match the required response format:\n${error}\nReply again with only JSON that matches the schema.`;
}

export function compactionSummaryMessage(summary: string): string {
  return `Summary of the earlier conversation (older messages were compacted when this run continued as new):\n${summary}`;
}
