/**
 * Workflow time. Temporal's workflow sandbox replaces `Date` with the time of the current workflow task, which
 * replays identically, so reading it here is deterministic. This is the one sanctioned place workflow code reads
 * it (the determinism check allows this file only); everything else calls `workflowNow()`.
 */
export function workflowNow(): number {
  return Date.now();
}

export function workflowIsoNow(): string {
  return new Date(workflowNow()).toISOString();
}

/**
 * The latest time Temporal takes (a Datetime search attribute refuses later ones), 9999-12-31T23:59:59.999Z: a
 * deadline past it is never.
 */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The ISO time of `at` (epoch ms), at most the latest time Temporal takes. A duration is checked as positive and
 * finite only, so a timeout of '99999999d' is taken: as a Date its deadline threw RangeError, and past year 9999 the
 * search attribute of the next deadline was refused; either way the run's workflow task failed for good.
 */
export function isoAt(at: number): string {
  return new Date(Math.min(at, LATEST_MS)).toISOString();
}
