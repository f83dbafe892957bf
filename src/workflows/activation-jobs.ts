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
};

/** Jobs that ride along with others, or that replay does not see where the live run did. */
function followsOthers(job: Job): boolean {
  return Boolean(job.queryWorkflow || job.resolveActivity?.isLocal || job.notifyHasPatch || job.updateRandomSeed || job.removeFromCache);
}

/** Whether the activation brings something replay sees where the live run did: a step of the run's own. */
export function isRunStep(jobs: readonly Job[]): boolean {
  return jobs.some((job) => !followsOthers(job));
}
