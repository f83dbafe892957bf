/**
 * How many approvals wait across all runs, from visibility alone: a run's `HitlPendingCount` says how many of its
 * calls wait, and Temporal can count runs but not sum an attribute, so the sum is counted level by level: the runs
 * with at least 1 pending call, plus those with at least 2, and so on, until a level has none. A few count queries,
 * whatever the number of runs. Sub-agents' calls are counted once, through their top-level run, which shows them.
 */
import type { Client } from '@temporalio/client';
import { HitlPendingCount } from '../contract/search-attributes.js';
import { RUNS } from './run-lists.js';

/** Levels counted at most; a run with more pending calls counts as this many. @default 100 */
export const MAX_PENDING_LEVELS = 100;

/** How long counting may take in all: a scrape must not hang on an unreachable Temporal. */
const COUNT_TIMEOUT_MS = 5000;

export async function countPendingApprovals(client: Client, maxLevels = MAX_PENDING_LEVELS): Promise<number> {
  const base = `${RUNS} AND ExecutionStatus = 'Running' AND ParentWorkflowId IS NULL`;
  return client.connection.withDeadline(Date.now() + COUNT_TIMEOUT_MS, async () => {
    let total = 0;
    for (let level = 1; level <= maxLevels; level++) {
      const { count } = await client.workflow.count(`${base} AND ${HitlPendingCount.name} >= ${level}`);
      if (count === 0) break;
      total += count;
    }
    return total;
  });
}
