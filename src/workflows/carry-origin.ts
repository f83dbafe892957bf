/**
 * Only a run's own chain hands it a carried state. `carry` is part of the start input, and the start input belongs
 * to whoever starts the workflow (a client in any language, `temporal workflow start`). The run trusts a carried
 * state as it stands: the agent's snapshot, its policy, `always` decisions. A carry written by a caller could
 * therefore run tools the agent's policy gates, with no one's decision.
 *
 * A carry names the first run of its chain (`firstRunId`). The server tells each run its chain's first run, keeps
 * it across continue-as-new, a retry and a reset, and makes it anew when a caller starts a chain: no caller can
 * write it in advance. Carries from code before that field name the run that continued as new last in
 * `previousRunIds`, which must then be the run the server says this one continued from; so a retry of a run that
 * took such a carry (it continued from the run that failed, not from the one that wrote it) is refused. That branch
 * goes once no run from before patch-set-4 is open.
 */
import { workflowInfo } from '@temporalio/workflow';
import { PATCHES, takesPatch } from './patches.js';

/** What the server says of a run's chain. */
export interface ChainInfo {
  /** Unset for a run a caller started. */
  continuedFromExecutionRunId?: string;
  firstExecutionRunId: string;
}

/** Whether the run may take `carry` from its start input (read unvalidated: the stream's is read before the rest). */
export function carriedWithinChain(carry: unknown): boolean {
  return !takesPatch(PATCHES.carryFromOwnChain) || fromChain(carry, workflowInfo());
}

/** The check itself, on what the server says (`workflowInfo()`): pure, so every branch is unit-tested. */
export function fromChain(carry: unknown, chain: ChainInfo): boolean {
  if (chain.continuedFromExecutionRunId === undefined) return false;
  const { firstRunId, previousRunIds } = (typeof carry === 'object' && carry !== null ? carry : {}) as {
    firstRunId?: unknown;
    previousRunIds?: unknown;
  };
  if (firstRunId !== undefined) return firstRunId === chain.firstExecutionRunId;
  return Array.isArray(previousRunIds) && previousRunIds.at(-1) === chain.continuedFromExecutionRunId;
}

/** What a carry says of its chain: the runs before the next one, newest last (at most 50), and the chain's first. */
export function chainMarks(previousRunIds: readonly string[]): { previousRunIds: string[]; firstRunId?: string } {
  const info = workflowInfo();
  return {
    previousRunIds: [...previousRunIds, info.runId].slice(-50),
    ...(takesPatch(PATCHES.carryFromOwnChain) && { firstRunId: info.firstExecutionRunId }),
  };
}
