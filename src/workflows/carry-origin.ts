/**
 * Only a run's own continue-as-new hands it a carried state. `carry` is part of the start input, and the start
 * input belongs to whoever starts the workflow (a client in any language, `temporal workflow start`). The run trusts
 * a carried state as it stands: the agent's snapshot, its policy, `always` decisions. A carry written by a caller
 * could therefore run tools the agent's policy gates, with no one's decision.
 *
 * The run that continues as new names itself last in `previousRunIds`, and the server tells the next run which run
 * it continued from. No caller knows a run id before the server makes it, so a carry written at start never
 * matches, nor does one a retry or a cron run repeats. A reset run keeps its start event, so it still matches.
 */
import { workflowInfo } from '@temporalio/workflow';
import { PATCHES, takesPatch } from './patches.js';

/** Whether the run may take `carry` from its start input (read unvalidated: the stream's is read before the rest). */
export function carriedByPreviousRun(carry: unknown): boolean {
  if (!takesPatch(PATCHES.carryFromPreviousRun)) return true;
  const previous = (carry as { previousRunIds?: unknown } | null | undefined)?.previousRunIds;
  const from = workflowInfo().continuedFromExecutionRunId;
  return from !== undefined && Array.isArray(previous) && previous.at(-1) === from;
}
