/**
 * History written per approval by the OpenAI-Agents-pattern peer: both runs of a decided chain (the run that
 * paused, and the run it continued as new into), as the server counts them.
 */
import { waitUntil, type BenchContext } from '../context.js';

export interface ChainHistory {
  runs: number;
  events: number;
  bytes: number;
}

export async function measureOpenaiAgentsHistory(ctx: BenchContext, workflowId: string): Promise<ChainHistory> {
  let runs: { events: number; bytes: number }[] = [];
  // Visibility is eventually consistent: wait until both runs are listed as closed with their final counts.
  await waitUntil(
    async () => {
      runs = [];
      for await (const run of ctx.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
        if (run.status.name === 'RUNNING') return false;
        runs.push({ events: run.historyLength, bytes: run.historySize ?? 0 });
      }
      return runs.length === 2 && runs.every((r) => r.events > 0);
    },
    60_000,
    `${workflowId}'s two runs in visibility`,
    500,
  );
  return {
    runs: runs.length,
    events: runs.reduce((a, r) => a + r.events, 0),
    bytes: runs.reduce((a, r) => a + r.bytes, 0),
  };
}
