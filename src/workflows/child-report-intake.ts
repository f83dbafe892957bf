/**
 * A sub-agent's report (`hitl.childApprovals`) coming in: checked, then taken into the run's view of what its
 * sub-agents wait for (SubAgentMirror). Anyone can send a signal, and a signal does not say who sent it. Since patch
 * reportsConfirmed, a report is taken only once the sub-agent it names confirms it sent it (a query, by a local
 * activity), one report at a time per sub-agent, in the order they came: a forged one is ignored, whatever number it
 * bears, and cannot hold back the sub-agent's own.
 */
import { log, workflowInfo } from '@temporalio/workflow';
import { reportDigest } from '../contract/sent-report-query.js';
import { ACTIVITY_OPTIONS, localActivities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { noteVerdicts } from './forwarded-decisions.js';
import { extraArgumentsRefusal } from './one-argument.js';
import { PATCHES, takesPatch } from './patches.js';
import { acceptedReport, type ChildApprovals } from './sub-agent-report.js';

/** Never throws: a report that is malformed, forged or late is ignored, and the run is unchanged. */
export function takeChildReport(run: AgentRun, raw: unknown, extra: unknown[]): Promise<void> | undefined {
  const checked = takesPatch(PATCHES.checkedChildReports);
  const report = acceptedReport(raw, workflowInfo().workflowId, checked);
  if (!report || (checked && !run.children.isRunning(report.workflowId)) || extraArgumentsRefusal('report', extra)) {
    log.warn('ignored a sub-agent report that is malformed or not from a running sub-agent of this run');
    return undefined;
  }
  if (!takesPatch(PATCHES.reportsConfirmed)) {
    take(run, report);
    return undefined;
  }
  const { workflowId } = report;
  // Awaited by the signal's handler, so a run ends or continues as new only once every report is settled.
  return run.children.queueCheck(workflowId, async () => {
    // Older than one taken meanwhile, or its sub-agent has ended: nothing to ask.
    if (run.children.confirmedSince(workflowId, report.seq) || !run.children.isRunning(workflowId)) return;
    if (!(await confirmed(run, report, raw)) || !run.children.isRunning(workflowId)) return;
    run.children.noteConfirmed(workflowId, report.seq);
    take(run, report);
  });
}

async function confirmed(run: AgentRun, report: ChildApprovals, raw: unknown): Promise<boolean> {
  const { workflowId, seq } = report;
  try {
    const input = { workflowId, seq, digest: reportDigest(raw) };
    const answer = await run.visibility.duringLocalActivity(() =>
      localActivities.confirmSubAgentReport.executeWithOptions(ACTIVITY_OPTIONS.confirmReport, [input]),
    );
    if (answer === 'refuted') log.warn('ignored a report its sub-agent did not send', { workflowId, seq });
    return answer !== 'refuted';
  } catch (err) {
    log.warn('could not ask a sub-agent whether it sent a report; the report is ignored', { workflowId, seq, error: String(err) });
    return false;
  }
}

function take(run: AgentRun, report: ChildApprovals): void {
  // A sub-agent's call that newly waits is announced on this run's stream too (patch subAgentCallsAnnounced), as the
  // run's own are: a watcher of the top-level run learns of it there, under the id it is decided by here.
  const announces = takesPatch(PATCHES.subAgentCallsAnnounced);
  const shownBefore = announces ? new Set(run.children.pending().map((p) => p.id)) : undefined;
  const { changed, verdicts } = run.children.take(report);
  if (shownBefore) for (const call of run.children.pending()) if (!shownBefore.has(call.id)) run.events.approvalRequested(call);
  if (verdicts.length) noteVerdicts(run, verdicts);
  else if (changed) run.refresh();
}
