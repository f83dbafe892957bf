/**
 * A gated call's reviewer, run as an activity before humans see the call. Its approval or rejection settles the
 * call like a person's would, audited as `decidedBy: "reviewer:<name>"`; an escalation, or a reviewer that fails
 * or answers nonsense, sends the call to humans with its reasoning. In shadow mode the verdict is only recorded:
 * humans decide as if there were no reviewer (and do not see it, so it cannot sway them).
 */
import { ActivityFailure } from '@temporalio/common';
import { isCancellation, log } from '@temporalio/workflow';
import { truncateBytes } from '../bounds/truncate.js';
import type { CallRecord } from '../schemas/call-record.js';
import { durationToMs } from '../schemas/duration.js';
import { ReviewVerdict, reviewerName, type ReviewOutcome } from '../schemas/review.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { PATCHES, takesPatch } from './patches.js';
import { consentWindow, settle } from './run-decisions.js';
import { summaryText } from './summary-text.js';

/**
 * The call waits for its reviewer before any human sees it. Not a call a person wrote at a breakpoint: a reviewer
 * stands in for people on the model's calls, and a person's call waits for another person.
 */
export function reviewsFirst(record: CallRecord): boolean {
  const config = record.gate?.review;
  return !!config && !config.shadow && !record.review && !record.writtenBy && takesPatch(PATCHES.whoDecides);
}

/** Asks the reviewer; never throws on its failure (the call then goes to humans). */
async function askReviewer(run: AgentRun, record: CallRecord): Promise<ReviewOutcome> {
  const config = record.gate!.review!;
  const reviewer = reviewerName(config);
  const toolName = record.pending?.toolName ?? record.toolName;
  try {
    const answer = await activities.reviewCall.executeWithOptions(
      {
        ...ACTIVITY_OPTIONS.review,
        ...(config.timeout && { startToCloseTimeout: durationToMs(config.timeout) }),
        summary: summaryText(`review ${toolName} · reviewer:${reviewer}`),
      },
      [
        {
          agent: run.agent,
          model: config.model?.model ?? run.snapshot.model,
          reviewer: config,
          call: {
            id: record.pending?.id ?? record.id,
            toolName,
            args: record.pending?.args ?? record.args!,
            description: record.pending?.description ?? record.gate!.description,
          },
          prompt: run.input.prompt,
          ...(run.input.requestedBy && { requestedBy: run.input.requestedBy }),
          ...(run.input.context && { context: run.input.context }),
        },
      ],
    );
    // The activity checked it too; the run trusts no answer it has not read itself.
    const verdict = ReviewVerdict.safeParse(answer);
    if (!verdict.success) return { reviewer, verdict: 'failed', reason: 'The reviewer gave no valid verdict.' };
    return { reviewer, ...verdict.data, ...(config.shadow && { shadow: true }) };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const cause = err instanceof ActivityFailure && err.cause ? err.cause.message : String(err);
    log.warn('a reviewer failed; the call goes to humans', { toolName, reviewer, error: cause });
    return { reviewer, verdict: 'failed', reason: `The reviewer could not decide: ${truncateBytes(cause, 1000)}` };
  }
}

/**
 * Reviews a call no human has seen yet. Returns true when the reviewer settled it; otherwise the call goes to
 * humans, who see the returned outcome's reasoning.
 */
export async function reviewBeforeHumans(run: AgentRun, record: CallRecord): Promise<{ settled: boolean; outcome: ReviewOutcome }> {
  const outcome = await askReviewer(run, record);
  run.book.reviewed(record, outcome);
  const decidedBy = `reviewer:${outcome.reviewer}`;
  const extra = { message: outcome.reason, review: outcome };
  if (outcome.verdict === 'approve') {
    settle(run, record, { kind: 'approve', via: 'reviewer', approver: decidedBy, ...consentWindow(record.gate!) }, extra);
    return { settled: true, outcome };
  }
  if (outcome.verdict === 'reject') {
    settle(run, record, { kind: 'reject', via: 'reviewer', approver: decidedBy, message: outcome.reason }, extra);
    return { settled: true, outcome };
  }
  run.events.noted(
    run.audit.append({
      via: 'reviewer',
      outcome: 'noted',
      event: outcome.verdict === 'failed' ? 'reviewer_failed' : 'reviewer_escalated',
      id: record.id,
      toolName: record.toolName,
      decidedBy,
      review: outcome,
      message: outcome.reason,
    }),
  );
  return { settled: false, outcome };
}

/** Shadow mode: the reviewer looks at the call beside the humans; its verdict is recorded, never acted on. */
export function shadowReview(run: AgentRun, record: CallRecord): Promise<void> {
  const config = record.gate?.review;
  if (!config?.shadow || record.review || record.resolution || !takesPatch(PATCHES.whoDecides)) return Promise.resolve();
  const shownAs = record.pending?.id ?? record.id;
  return askReviewer(run, record).then(
    (outcome) => {
      run.book.reviewed(record, outcome);
      run.events.noted(
        run.audit.append({
          via: 'reviewer',
          outcome: 'noted',
          event: 'shadow_verdict',
          id: shownAs,
          toolName: record.pending?.toolName ?? record.toolName,
          decidedBy: `reviewer:${outcome.reviewer}`,
          review: outcome,
          message: outcome.reason,
        }),
      );
      run.refresh();
    },
    // Cancelled with the run: nothing left to record.
    () => undefined,
  );
}
