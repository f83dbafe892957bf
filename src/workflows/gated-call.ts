/**
 * A gated call from announcement to its answer: prepared for approvers (the tool's own description, the reviewer,
 * the precheck's view of the world), decided, and run only while the consent holds and the world is as the
 * approvers saw it; otherwise it waits again (src/workflows/consent.ts).
 */
import type { CallRecord, Resolution } from '../schemas/call-record.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { AgentRun } from './agent-run.js';
import { announce, requestApproval, type AnnouncementExtras } from './announce.js';
import { describeForApprovers, describedByTool } from './approval-description.js';
import { awaitDecision } from './approval-gate.js';
import { reviewBeforeHumans, reviewsFirst, shadowReview } from './call-review.js';
import { checkConsent, consentAtOnce, lapsed, repend, StartMissed } from './consent.js';
import { PATCHES, takesPatch } from './patches.js';
import { applyAlways } from './run-decisions.js';
import { standingDecision } from './standing-decisions.js';
import { lookAtWorld, prechecked } from './world.js';
import { editedNote, ignoredMessage, proposedNote, rejectedMessage, timedOutMessage } from './tool-messages.js';

/** Runs a tool for the call; `startWithinMs` bounds how long its activity may wait to start (StartMissed after). */
export type RunAs = (name: string, args: string | ToolArgs, startWithinMs?: number) => Promise<string>;

export async function answerGated(run: AgentRun, record: CallRecord, ownIds: boolean, runAs: RunAs): Promise<string> {
  if (!record.pending && !record.resolution) await prepare(run, record, ownIds);
  const shadow = shadowReview(run, record);
  for (;;) {
    const resolution = await awaitDecision(run, record);
    const consent = consentAtOnce(run, record, resolution) ?? (await checkConsent(run, record, resolution));
    if (consent.stale) {
      await repend(run, record, consent.stale, ownIds);
      continue;
    }
    try {
      const runs = (name: string, args: string | ToolArgs) => runAs(name, args, consent.startWithinMs);
      // The model's call, approved, runs with no await in between since patch toolWakesListings (consentAtOnce says why).
      const direct = resolution.kind === 'approve' && !record.proposal && takesPatch(PATCHES.toolWakesListings);
      const answer = direct ? await runs(record.toolName, record.args!) : await decided(record, resolution, runs);
      await shadow;
      return answer;
    } catch (err) {
      if (!(err instanceof StartMissed)) throw err;
      await repend(run, record, lapsed(record), ownIds);
    }
  }
}

/** What the decision means for the model: the tool's result, or what a human, a reviewer or the deadline said. */
async function decided(
  record: CallRecord,
  resolution: Resolution,
  runAs: (name: string, args: string | ToolArgs) => Promise<string>,
): Promise<string> {
  const proposal = record.proposal;
  const asked = proposal?.toolName ?? record.toolName;
  switch (resolution.kind) {
    case 'approve':
      if (!proposal) return runAs(record.toolName, record.args!);
      return `${proposedNote(record.toolName, proposal, resolution.approver)}\n${await runAs(proposal.toolName, proposal.args)}`;
    case 'edit':
      return `${editedNote(record.toolName, resolution.toolName, resolution.args)}\n${await runAs(resolution.toolName, resolution.args)}`;
    case 'reject': {
      const reviewer = resolution.via === 'reviewer' ? resolution.approver : undefined;
      return rejectedMessage(asked, resolution.message, resolution.via === 'always', reviewer);
    }
    case 'respond':
      return resolution.message;
    case 'ignore':
      return ignoredMessage(asked);
    case 'timeout':
      return timedOutMessage(asked, record.gate!.timeoutMs);
  }
}

/**
 * Runs what comes before approvers see the call, then shows it (unless the reviewer or an `always` decision made
 * while this ran settled it). The call counts as running meanwhile, so the run does not continue as new.
 *
 * The precheck looks at the world before the tool describes the call (patch worldBeforeDescription): a sibling call
 * of the same step may change the world meanwhile, and a change after the precheck is caught when the call is
 * approved (consent.ts). Looked at after the description, the world could already hold the change the description
 * did not show, and the approver saw two pictures that nothing would catch.
 */
async function prepare(run: AgentRun, record: CallRecord, ownIds: boolean): Promise<void> {
  run.book.markRunning(record);
  // `prechecked` is asked where each order asks it (for runs from before patch sets it records a patch marker), and
  // awaited only when there is a precheck: either way, this call's commands would move among its siblings' on replay.
  const lookFirst = takesPatch(PATCHES.worldBeforeDescription);
  const look = () => lookAtWorld(run, record, record.toolName, record.args!);
  const seenFirst = lookFirst && prechecked(run, record.toolName) ? await look() : undefined;
  const description = describedByTool(run.snapshot, record) ? await describeForApprovers(run, record) : record.gate!.description;
  const extras: AnnouncementExtras = {};
  if (reviewsFirst(record)) {
    const { settled, outcome } = await reviewBeforeHumans(run, record);
    if (settled) return run.book.markWaiting(record);
    extras.review = outcome;
  }
  const seen = !lookFirst && prechecked(run, record.toolName) ? await look() : seenFirst;
  if (seen?.ok) extras.world = seen.world;
  run.book.markWaiting(record);
  const always = standingDecision(run, record);
  if (always) return applyAlways(run, record, always);
  announce(run, record, description, ownIds, undefined, extras);
  requestApproval(run, record.pending!);
  run.refresh();
}
