/**
 * What a run's stream no longer holds, read from the runs before it. A run hands only the newest part of its
 * stream to the run it continues as (`maxCarriedChars`, src/workflows/run-stream.ts); the rest stays in the run
 * that published it, which answers `runStreamItems` after it has closed (a worker replays it). So a reader whose
 * offset is older than the current run's first item walks the chain back (each run's first event names the run
 * it continued from) until a run holds that offset, then reads forward. What no run holds any more (dropped past
 * `maxRetainedChars` within a run, or in a run Temporal no longer keeps) is skipped, as it always was.
 */
import type { Client } from '@temporalio/client';
import type { PollResult } from '@temporalio/workflow-streams/workflow';
import { runStreamItemsQuery } from '../contract/messages.js';

/** How far back a reader looks; each run it reads costs a replay of that run on a worker. */
const MAX_EARLIER_RUNS = 50;

/** Items in [from, to) that the runs before `runId` still hold, in offset order. */
export async function readEarlierRuns(
  client: Client,
  workflowId: string,
  runId: string,
  from: number,
  to: number,
  depth = 0,
): Promise<PollResult['items']> {
  if (from >= to || depth >= MAX_EARLIER_RUNS) return [];
  const items: PollResult['items'] = [];
  let next = from;
  let previous: string | undefined;
  try {
    previous = await previousRunId(client, workflowId, runId);
    if (!previous) return [];
    for (let more = true; more && next < to;) {
      const read = await client.workflow.getHandle(workflowId, previous).query(runStreamItemsQuery, { topics: [], from_offset: next });
      items.push(...read.items.filter((item) => item.offset < to));
      more = read.more_ready;
      next = read.next_offset;
    }
  } catch {
    // The run cannot answer (Temporal no longer keeps it, or no worker can replay it): its part is skipped.
    return [];
  }
  // Runs hold a contiguous log: a first item past `from` means the offsets before it are in a run before this one.
  const held = items[0]?.offset ?? Math.min(next, to);
  const earlier = held > from ? await readEarlierRuns(client, workflowId, previous, from, held, depth + 1) : [];
  return [...earlier, ...items];
}

/** The run `runId` continued from, named by its first history event; undefined for the chain's first run. */
async function previousRunId(client: Client, workflowId: string, runId: string): Promise<string | undefined> {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 1,
  });
  return history?.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
}
