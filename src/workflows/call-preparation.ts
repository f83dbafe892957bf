/**
 * Whether a gated call is shown to approvers at once, or only once something has run first: its tool's own
 * description, its reviewer, or its tool's precheck (what the world looks like when approvers decide).
 */
import type { CallRecord } from '../schemas/call-record.js';
import type { AgentRun } from './agent-run.js';
import { describedByTool } from './approval-description.js';
import { reviewsFirst } from './call-review.js';
import { prechecked } from './world.js';

export function preparedFirst(run: AgentRun, record: CallRecord): boolean {
  // In this order: runs recorded before reviewers and prechecks existed evaluate only the first.
  return describedByTool(run.snapshot, record) || reviewsFirst(record) || prechecked(run, record.toolName);
}
