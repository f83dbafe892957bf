/**
 * A call an approver proposes by an edit into another tool is shown at once: the edit is applied in the decision's
 * handler, which cannot wait for an activity. What a model's call of that tool gets before approvers see it (its
 * precheck's view of the world, then the tool's own description) is looked up here, while the call waits, and added
 * to what approvers see (patch unseenWorldWaits). An approval given before the world is there sends the call back to
 * its approvers with it (consent.ts).
 */
import { log } from '@temporalio/workflow';
import type { CallRecord } from '../schemas/call-record.js';
import type { AgentRun } from './agent-run.js';
import { describeForApprovers, describedByTool } from './approval-description.js';
import { lookAtWorld, prechecked } from './consent.js';
import { PATCHES, takesPatch } from './patches.js';

/**
 * Whether the proposed call still waits for its world or its description. Asked without awaiting anything, so runs
 * that need neither keep the order of their commands. A world once shown is never replaced: the approval is checked
 * against it.
 */
export function proposalUnprepared(run: AgentRun, record: CallRecord): boolean {
  const shown = record.pending;
  if (!shown?.proposedBy || record.resolution || !takesPatch(PATCHES.unseenWorldWaits)) return false;
  return (shown.world === undefined && prechecked(run, shown.toolName)) || describedByTool(run.snapshot, record, shown.toolName);
}

/** Looks the proposed call up and shows what it found. The call counts as running meanwhile (no continue-as-new). */
export async function prepareProposal(run: AgentRun, record: CallRecord): Promise<void> {
  const shown = record.pending!;
  const call = { toolName: shown.toolName, args: shown.args };
  run.book.markRunning(record);
  const seen =
    shown.world === undefined && prechecked(run, call.toolName) ? await lookAtWorld(run, record, call.toolName, call.args) : undefined;
  const description = describedByTool(run.snapshot, record, call.toolName) ? await describeForApprovers(run, record, call) : undefined;
  run.book.markWaiting(record);
  if (seen && !seen.ok) log.warn('could not look at the world of a proposed call', { toolName: call.toolName, error: seen.error });
  if (record.pending !== shown || record.resolution) return;
  run.book.lookedUp(record, { ...(seen?.ok && { world: seen.world }), ...(description !== undefined && { description }) });
  run.refresh();
}
