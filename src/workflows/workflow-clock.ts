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
