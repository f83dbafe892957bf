/**
 * Consent that expires, and drift that is caught. An approval holds for the gate's `validFor`: a tool that has not
 * started by then (still waiting on a sibling, or on a worker: Temporal's schedule-to-start timeout) does not run
 * on it. A tool with a precheck shows approvers its view of the world when the call is announced and looks again
 * just before it runs; if the world changed, or the precheck cannot say, the call waits again. Either way the call
 * is announced anew under `<id>.<n>`, and approvers see why and what changed.
 */
import { isCancellation, log } from '@temporalio/workflow';
import deepEqual from 'fast-deep-equal';
import ms from 'ms';
import { truncateBytes, utf8Length } from '../bounds/truncate.js';
import type { CallRecord, Resolution } from '../schemas/call-record.js';
import type { RependReason } from '../schemas/pending-approval.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { announce } from './announce.js';
import { describeForApprovers, describedByTool } from './approval-description.js';
import { PATCHES, takesPatch } from './patches.js';
import { requestApproval } from './run-decisions.js';
import { workflowNow } from './workflow-clock.js';

/** A precheck's view of the world larger than this is treated as a failed precheck (it travels in every view). */
const WORLD_BYTES = 8 * 1024;

/** The tool's activity did not start within what was left of the approval's validity. */
export class StartMissed {
  readonly missed = true;
}

export interface Stale {
  reason: RependReason;
  message: string;
  /** What the precheck sees now (world_changed). */
  world?: unknown;
}

/** The tool looks at the world before its calls are shown and before they run (recorded when the run started). */
export function prechecked(run: AgentRun, toolName: string): boolean {
  return run.snapshot.precheckedTools?.includes(toolName) === true && takesPatch(PATCHES.whoDecides);
}

/** The tool's view of the world for these arguments, or why it could not say. */
export async function lookAtWorld(
  run: AgentRun,
  record: CallRecord,
  toolName: string,
  args: Record<string, unknown>,
): Promise<{ ok: true; world: unknown } | { ok: false; error: string }> {
  try {
    const world = await activities.precheckCall.executeWithOptions({ ...ACTIVITY_OPTIONS.precheck, summary: `precheck ${toolName}` }, [
      { agent: run.agent, name: toolName, args, toolCallId: record.id, context: run.input.context },
    ]);
    const bytes = utf8Length(JSON.stringify(world ?? null));
    if (bytes > WORLD_BYTES) return { ok: false, error: `the precheck's answer is ${bytes} bytes; the limit is ${WORLD_BYTES}` };
    return { ok: true, world: world ?? null };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const cause = (err as { cause?: Error }).cause?.message ?? String(err);
    return { ok: false, error: truncateBytes(cause, 1000) };
  }
}

/**
 * Whether an approved call may still run: the world is as its approvers saw it and the approval has not lapsed.
 * `startWithinMs`: what is left of the approval, for the tool's schedule-to-start timeout.
 */
export async function checkConsent(
  run: AgentRun,
  record: CallRecord,
  resolution: Resolution,
): Promise<{ stale?: Stale; startWithinMs?: number }> {
  if (resolution.kind !== 'approve' && resolution.kind !== 'edit') return {};
  const shown = record.pending;
  // A call shown without a world (its precheck failed then, or it was approved before the world of a proposal was
  // looked at) may not run on one its approvers did not see: it waits again, with the world as it is now (patch
  // unseenWorldWaits; before it, it ran unchecked).
  const unseen = shown?.world === undefined && takesPatch(PATCHES.unseenWorldWaits);
  if (shown && (shown.world !== undefined || unseen) && prechecked(run, shown.toolName)) {
    const now = await lookAtWorld(run, record, shown.toolName, shown.args);
    if (!now.ok) return { stale: { reason: 'precheck_failed', message: `The precheck of ${shown.toolName} failed: ${now.error}` } };
    if (shown.world === undefined) {
      const message = `No approver saw what ${shown.toolName} depends on: it was not known when the call was shown.`;
      return { stale: { reason: 'world_changed', message, world: now.world } };
    }
    if (!deepEqual(now.world, shown.world)) {
      return {
        stale: { reason: 'world_changed', message: `What ${shown.toolName} depends on changed since it was approved.`, world: now.world },
      };
    }
  }
  if (resolution.validUntil === undefined) return {};
  const left = resolution.validUntil - workflowNow();
  return left > 0 ? { startWithinMs: left } : { stale: lapsed(record) };
}

export function lapsed(record: CallRecord): Stale {
  const validFor = record.gate?.validForMs;
  const toolName = record.pending?.toolName ?? record.toolName;
  return {
    reason: 'consent_expired',
    message: `${toolName} had not started within ${validFor ? ms(validFor, { long: true }) : 'its validity'} of its approval.`,
  };
}

/** The approved call waits again: announced anew (`<id>.<n>`) with why, and the world as it is now. */
export async function repend(run: AgentRun, record: CallRecord, stale: Stale, ownIds: boolean): Promise<void> {
  const before = record.pending;
  const resolution = record.resolution!;
  const approvedBy = resolution.kind === 'timeout' ? undefined : resolution.approver;
  const toolName = before?.toolName ?? record.toolName;
  const args = before?.args ?? record.args!;
  let world = stale.world;
  if (world === undefined && prechecked(run, toolName)) {
    const now = await lookAtWorld(run, record, toolName, args);
    if (now.ok) world = now.world;
    else log.warn('could not look at the world for a call that waits again', { toolName, error: now.error });
  }
  // A proposal's tool describes it too from patch unseenWorldWaits on (proposal-preparation.ts); before, only the model's calls.
  const describes = record.proposal
    ? takesPatch(PATCHES.unseenWorldWaits) && describedByTool(run.snapshot, record, toolName)
    : describedByTool(run.snapshot, record);
  const description = describes ? await describeForApprovers(run, record, { toolName, args }) : undefined;
  const previousId = before?.id ?? record.id;
  announce(run, record, description ?? before?.description ?? record.gate!.description, ownIds, workflowNow(), {
    ...(record.review && record.review.verdict !== 'approve' && { review: record.review }),
    ...(world !== undefined && { world }),
    repended: {
      reason: stale.reason,
      previousId,
      ...(approvedBy && { approvedBy }),
      message: stale.message,
      ...(stale.reason === 'world_changed' && { worldBefore: before?.world }),
    },
  });
  run.events.noted(
    run.audit.append({
      via: 'run',
      outcome: 'noted',
      event: stale.reason,
      id: previousId,
      toolName,
      message: stale.message,
      proposedAs: record.pending!.id,
    }),
  );
  requestApproval(run, record.pending!);
  run.refresh();
}
