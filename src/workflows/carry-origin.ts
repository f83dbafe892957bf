/**
 * Only a run's own continue-as-new hands it a carried state. `carry` is part of the start input, and the start
 * input belongs to whoever starts the workflow (a client in any language, `temporal workflow start`). The run trusts
 * a carried state as it stands: the agent's snapshot, its policy, `always` decisions. A carry written by a caller
 * could therefore run tools the agent's policy gates, with no one's decision.
 *
 * A carry names the first run of its chain (`firstRunId`); the server tells each run its chain's first run, keeps it
 * across continue-as-new, a retry of a failed run and a reset, and makes it when a caller starts a new chain, so no
 * caller can write it in advance. Carries from code before that field name the run that continued as new last in
 * `previousRunIds`, which must then be the run the server says this one continued from.
 */
import { workflowInfo } from '@temporalio/workflow';
import { PATCHES, takesPatch } from './patches.js';

/** Whether the run may take `carry` from its start input (read unvalidated: the stream's is read before the rest). */
export function carriedByPreviousRun(carry: unknown): boolean {
  if (!takesPatch(PATCHES.carryFromPreviousRun)) return true;
  const { firstRunId, previousRunIds } = (carry ?? {}) as { firstRunId?: unknown; previousRunIds?: unknown };
  const info = workflowInfo();
  if (info.continuedFromExecutionRunId === undefined) return false;
  if (firstRunId !== undefined) return firstRunId === info.firstExecutionRunId;
  return Array.isArray(previousRunIds) && previousRunIds.at(-1) === info.continuedFromExecutionRunId;
}

/** What a carry says of its chain: the runs before the next one, newest last (at most 50), and the chain's first. */
export function chainMarks(previousRunIds: readonly string[]): { previousRunIds: string[]; firstRunId?: string } {
  const info = workflowInfo();
  return {
    previousRunIds: [...previousRunIds, info.runId].slice(-50),
    ...(takesPatch(PATCHES.carryFromPreviousRun) && { firstRunId: info.firstExecutionRunId }),
  };
}
