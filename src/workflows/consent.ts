/**
 * Consent that expires, and drift that is caught. An approval holds for the gate's `validFor`: a tool that has not
 * started by then (still waiting on a sibling, or on a worker: Temporal's schedule-to-start timeout) does not run
 * on it. A tool with a precheck shows approvers its view of the world when the call is announced and looks again
 * just before it runs; if the world changed, or the precheck cannot say, the call waits again. Either way the call
 * is announced anew under `<id>.<n>`, and approvers see why and what changed.
 */
import { log } from '@temporalio/workflow';
import deepEqual from 'fast-deep-equal';
import { classifyCall } from '../policy/classify-call.js';
import type { CallRecord, GateSettings, Resolution } from '../schemas/call-record.js';
import type { PendingApproval, RependReason } from '../schemas/pending-approval.js';
import type { AgentRun } from './agent-run.js';
import { announce, requestApproval } from './announce.js';
import { describeForApprovers, describedByTool } from './approval-description.js';
import { classifyOptions } from './description-bound.js';
import { mcpToolOf } from './mcp-tools.js';
import { PATCHES, takesPatch } from './patches.js';
import { proposalGate } from './proposal-gate.js';
import { runDuration } from './run-duration.js';
import { workflowNow } from './workflow-clock.js';
import { lookAtWorld, prechecked } from './world.js';

/** The tool's activity did not start within what was left of the approval's validity. */
export class StartMissed {
  readonly missed = true;
}

export interface Stale {
  reason: RependReason;
  message: string;
  /** What the precheck sees now (world_changed). */
  world?: unknown;
  /** The call as an approver edited it: it waits instead of the one shown. */
  edited?: EditedCall;
}

type EditedCall = { toolName: string; args: Record<string, unknown> };

/**
 * Whether an approved call may still run: the world is as its approvers saw it and the approval has not lapsed.
 * `startWithinMs`: what is left of the approval, for the tool's schedule-to-start timeout.
 */
export async function checkConsent(run: AgentRun, record: CallRecord, resolution: Resolution): Promise<Consent> {
  if (resolution.kind !== 'approve' && resolution.kind !== 'edit') return {};
  const shown = record.pending;
  if (shown && takesPatch(PATCHES.unseenWorldWaits)) {
    const stale = await worldAsSeen(run, record, shown, resolution);
    if (stale) return { stale };
  } else if (shown && shown.world !== undefined && prechecked(run, shown.toolName)) {
    const now = await lookAtWorld(run, record, shown.toolName, shown.args);
    if (!now.ok) return { stale: { reason: 'precheck_failed', message: `The precheck of ${shown.toolName} failed: ${now.error}` } };
    if (!deepEqual(now.world, shown.world)) {
      return {
        stale: { reason: 'world_changed', message: `What ${shown.toolName} depends on changed since it was approved.`, world: now.world },
      };
    }
  }
  return validity(record, resolution);
}

/**
 * checkConsent's answer, for a call whose check looks at no world (its tool has no precheck), without an await: since
 * patch toolWakesListings, an approved call's tool starts in the decision's workflow task with no workflow promise
 * between (each promise there costs the task a stack capture). Undefined when the world must be looked at, and for
 * runs from before the patch, which awaited checkConsent.
 */
export function consentAtOnce(run: AgentRun, record: CallRecord, resolution: Resolution): Consent | undefined {
  if (!takesPatch(PATCHES.toolWakesListings)) return undefined;
  if (resolution.kind !== 'approve' && resolution.kind !== 'edit') return {};
  // Every run that takes this patch took unseenWorldWaits: what runs is looked at as worldAsSeen looks.
  if (record.pending && prechecked(run, whatRuns(record.pending, resolution).toolName)) return undefined;
  return validity(record, resolution);
}

export type Consent = { stale?: Stale; startWithinMs?: number };

/** An approval holds for the gate's `validFor`: what is left of it, or lapsed. */
function validity(record: CallRecord, resolution: Extract<Resolution, { kind: 'approve' | 'edit' }>): Consent {
  if (resolution.validUntil === undefined) return {};
  const left = resolution.validUntil - workflowNow();
  return left > 0 ? { startWithinMs: left } : { stale: lapsed(record) };
}

/**
 * What runs (the call as shown, or as an approver edited it) runs only on the world its approvers saw (patch
 * unseenWorldWaits). Before it, only the call as shown was checked, and only if it had a world: a call shown without
 * one ran unchecked, and an edit ran on the world of the arguments it replaced.
 */
async function worldAsSeen(run: AgentRun, record: CallRecord, shown: PendingApproval, resolution: Resolution): Promise<Stale | undefined> {
  const edited = editedCall(resolution);
  const runs = whatRuns(shown, resolution);
  if (!prechecked(run, runs.toolName)) return undefined;
  const now = await lookAtWorld(run, record, runs.toolName, runs.args);
  if (!now.ok) return { reason: 'precheck_failed', message: `The precheck of ${runs.toolName} failed: ${now.error}`, edited };
  if (shown.world !== undefined && shown.toolName === runs.toolName && deepEqual(now.world, shown.world)) return undefined;
  const message =
    shown.world === undefined
      ? `No approver saw what ${runs.toolName} depends on: it was not known when the call was shown.`
      : edited
        ? `No approver saw what ${runs.toolName} depends on for the edited arguments.`
        : `What ${runs.toolName} depends on changed since it was approved.`;
  return { reason: 'world_changed', message, world: now.world, edited };
}

/** The call as an approver edited it, if they did. */
function editedCall(resolution: Resolution): EditedCall | undefined {
  return resolution.kind === 'edit' ? { toolName: resolution.toolName, args: resolution.args } : undefined;
}

/** What runs on an approval: the call as shown, or as an approver edited it. */
function whatRuns(shown: PendingApproval, resolution: Resolution): EditedCall | PendingApproval {
  return editedCall(resolution) ?? shown;
}

export function lapsed(record: CallRecord): Stale {
  const validFor = record.gate?.validForMs;
  const resolution = record.resolution;
  // An edit whose approval lapsed waits again as the edit, not as the call it replaced (patch unseenWorldWaits).
  const edited =
    resolution?.kind === 'edit' && takesPatch(PATCHES.unseenWorldWaits)
      ? { toolName: resolution.toolName, args: resolution.args }
      : undefined;
  const toolName = edited?.toolName ?? record.pending?.toolName ?? record.toolName;
  return {
    reason: 'consent_expired',
    message: `${toolName} had not started within ${validFor ? runDuration(validFor, true) : 'its validity'} of its approval.`,
    edited,
  };
}

/** The approved call waits again: announced anew (`<id>.<n>`) with why, and the world as it is now. */
export async function repend(run: AgentRun, record: CallRecord, stale: Stale, ownIds: boolean): Promise<void> {
  // Listings held back for a tool that does not run now: no activity of it will wake the run to publish them.
  if (takesPatch(PATCHES.toolWakesListings)) run.visibility.releaseListings();
  const before = record.pending;
  const resolution = record.resolution!;
  const approvedBy = resolution.kind === 'timeout' ? undefined : resolution.approver;
  // An edit that must wait becomes the call its approvers decide: written by a person, like a proposal, but one its
  // editor may approve, having had the authority to make it.
  if (stale.edited) run.book.propose(record, stale.edited, gateOfEdit(run, record, stale.edited));
  const toolName = stale.edited?.toolName ?? before?.toolName ?? record.toolName;
  const args = stale.edited?.args ?? before?.args ?? record.args!;
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

/**
 * Who decides an edited call that waits again: its tool's policy, if it gates it; else the call's own gate. A person
 * wrote it, so its deadline does not approve it (proposal-gate.ts).
 */
function gateOfEdit(run: AgentRun, record: CallRecord, edited: EditedCall): GateSettings {
  const facts = { context: run.input.context ?? {}, requestedBy: run.input.requestedBy, agent: run.agent, callId: record.id };
  const hints = mcpToolOf(run.snapshot, edited.toolName)?.annotations;
  const target = classifyCall(run.policy, edited.toolName, edited.args, facts, hints, classifyOptions());
  return proposalGate(target.gated ? target.settings : record.gate!, takesPatch(PATCHES.deadlinesApproveNoProposal));
}
