/**
 * A sub-agent's report to its parent within Temporal's 2 MB payload limit: a signal over it is refused by the server
 * with the workflow task that sends it, on every retry. A report carries every call that waits, with its arguments,
 * its sub-agents' calls among them: 32 sub-agents each waiting on a model reply's 192 KiB of calls made 6 MB.
 */
import { jsonPrefixLength } from '../bounds/json-prefix.js';
import { utf8Length } from '../bounds/truncate.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { listedApproval } from './listed-approval.js';

/** Well under the 2 MB a signal's payload may hold, with room for the rest of the report. */
export const REPORT_PENDING_BYTES = 1024 * 1024;

/**
 * The calls a report carries: all of them whole while they fit in REPORT_PENDING_BYTES; else with their arguments
 * cut as lists show them (`argsTruncated`: the parent's views say so, and a decision still binds the whole
 * arguments by their hash); else the first that fit so (the rest still wait in the sub-agent, and its own views
 * show them).
 */
export function reportedPending(pending: readonly PendingApproval[]): PendingApproval[] {
  if (utf8Length(JSON.stringify(pending)) <= REPORT_PENDING_BYTES) return [...pending];
  const listed = pending.map(listedApproval);
  return listed.slice(0, jsonPrefixLength(listed, REPORT_PENDING_BYTES));
}
