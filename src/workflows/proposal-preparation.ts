/**
 * A call an approver proposes by an edit into another tool is shown at once: the edit is applied in the decision's
 * handler, which cannot wait for an activity. What a model's call of that tool gets before approvers see it (its
 * precheck's view of the world, then the tool's own description) is looked up here, while the call waits, and added
 * to what approvers see (patch unseenWorldWaits). Until then the call is shown as `preparing`, and a decision that
 * would run it is refused (`not_ready`, decision-plan.ts); approvers' webhooks and watchers are told of it once it is
 * ready.
 */
import { log } from '@temporalio/workflow';
import type { CallRecord } from '../schemas/call-record.js';
import type { AgentRun } from './agent-run.js';
import { describeForApprovers, describedByTool } from './approval-description.js';
import { lookAtWorld, prechecked } from './world.js';
import { requestApproval } from './announce.js';
import { PATCHES, takesPatch } from './patches.js';

/** Whether a call proposed into `toolName` is looked up before approvers may run it (its announcement says so). */
export function preparedBeforeDeciding(run: AgentRun, record: CallRecord, toolName: string): boolean {
  return takesPatch(PATCHES.unseenWorldWaits) && (prechecked(run, toolName) || describedByTool(run.snapshot, record, toolName));
}

/** Whether the proposed call shown now still waits to be looked up. */
export function proposalUnprepared(record: CallRecord): boolean {
  return record.pending?.preparing === true && !record.resolution;
}

/**
 * Looks the proposed call up, shows what it found and tells approvers it waits for them. The call counts as running
 * meanwhile (no continue-as-new). A world once shown is never replaced: the approval is checked against it.
 */
export async function prepareProposal(run: AgentRun, record: CallRecord): Promise<void> {
  const shown = record.pending!;
  const call = { toolName: shown.toolName, args: shown.args };
  run.book.markRunning(record);
  const seen = prechecked(run, call.toolName) ? await lookAtWorld(run, record, call.toolName, call.args) : undefined;
  const description = describedByTool(run.snapshot, record, call.toolName) ? await describeForApprovers(run, record, call) : undefined;
  run.book.markWaiting(record);
  if (seen && !seen.ok) log.warn('could not look at the world of a proposed call', { toolName: call.toolName, error: seen.error });
  if (record.pending !== shown || record.resolution) return;
  run.book.lookedUp(record, { ...(seen?.ok && { world: seen.world }), ...(description !== undefined && { description }) });
  requestApproval(run, shown);
  run.refresh();
}
