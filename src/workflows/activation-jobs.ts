/**
 * Which activations a run may act on as a step of its own. A query answered while a local activity runs makes Core
 * end that workflow task early and deliver the activity's result in a new task, a few events further on; a replay
 * delivers the result in the first task. An activation that only brings such jobs is one replay may not see where
 * the live run did: what a run decides or does there could land in another workflow task on replay than it did live
 * (test/continue-as-new-cut.test.ts). history-reading.ts and next-activation.ts both skip those.
 */
export type Job = {
  queryWorkflow?: unknown;
  resolveActivity?: { isLocal?: boolean | null } | null;
  notifyHasPatch?: unknown;
  updateRandomSeed?: unknown;
  removeFromCache?: unknown;
  doUpdate?: unknown;
  signalWorkflow?: unknown;
};

/** Jobs that ride along with others, or that replay does not see where the live run did. */
function followsOthers(job: Job): boolean {
  return Boolean(job.queryWorkflow || job.resolveActivity?.isLocal || job.notifyHasPatch || job.updateRandomSeed || job.removeFromCache);
}

/**
 * Whether the activation brings something replay sees where the live run did: a step of the run's own. Updates that
 * come with a late local result are refused (late-local-result.ts), so no replay sees them.
 */
export function isRunStep(jobs: readonly Job[]): boolean {
  const late = carriesLateLocalResult(jobs);
  return jobs.some((job) => !followsOthers(job) && !(late && job.doUpdate));
}

/**
 * A step of the run's own that history records whatever the run's handlers make of it: not an update alone. An update
 * its validator refuses leaves no trace in history (the server drops the workflow task that carried it, unless that
 * task made commands), so a replay never sees that activation: commands made in it live would be made in a later task
 * on replay, and the run would fail to replay. A step that commands are left for (next-activation.ts) must be one of
 * these.
 */
export function isRecordedStep(jobs: readonly Job[]): boolean {
  return jobs.some((job) => !followsOthers(job) && !job.doUpdate);
}

/**
 * A local activity's result delivered with signals or updates: what a query cut leaves (late-local-result.ts). The live
 * run gets the result here, in the task after the one whose commands recorded its marker, together with whatever
 * reached the server meanwhile; a replay delivers the result in the earlier task, alone, and the rest here.
 */
export function carriesLateLocalResult(jobs: readonly Job[]): boolean {
  return jobs.some((job) => job.resolveActivity?.isLocal) && jobs.some((job) => job.signalWorkflow || job.doUpdate);
}
