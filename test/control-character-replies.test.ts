/**
 * A model whose replies are control characters: six bytes each in the JSON payloads Temporal counts, one in UTF-8.
 * Counted in UTF-8, the transcript's budget let the model call's input pass Temporal's 2 MB payload limit within a
 * few steps, and the server failed the run ("ScheduleActivityTaskCommandAttributes.Input exceeds size limit").
 * Since patch escapedSizes the budget counts what the payload holds (src/workflows/transcript.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../src/contract/limits.js';
import { runStateQuery } from '../src/contract/messages.js';
import { startHarness, type Harness } from './helpers/harness.js';

const controls = '\u0001'.repeat(60 * 1024);
const read = { id: 'r', name: 'read_data', arguments: { table: 'refunds' } };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    script: {
      conversations: [
        {
          match: 'reply in control characters',
          replies: [{ content: controls, toolCalls: [read], repeat: 12 }, { content: 'done' }],
        },
      ],
    },
  });
});
afterAll(() => h?.close());

describe('replies of control characters', () => {
  it('keep the model call within its payload limit, and the run completes', { timeout: 120_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'reply in control characters', maxSteps: 20 });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'done' });

    // The run continues as new as its history grows; every run of the chain counts.
    const { previousRunIds, messages } = await handle.query(runStateQuery);
    const runs = [...previousRunIds, undefined].map((runId) => h.temporal.client.workflow.getHandle(handle.workflowId, runId));
    const inputs = (await Promise.all(runs.map(async (run) => (await run.fetchHistory()).events ?? [])))
      .flat()
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel')
      .map((e) => (e.activityTaskScheduledEventAttributes!.input?.payloads ?? []).reduce((n, p) => n + (p.data?.length ?? 0), 0));
    expect(inputs).toHaveLength(13);
    // Twelve replies hold 4.3 MB of JSON; the transcript keeps its budget of it, and the newest reply whole.
    const newest = 6 * controls.length;
    console.log(`model call inputs: largest ${Math.max(...inputs)} bytes (budget ${LIMITS.transcriptBytes} + newest ${newest})`);
    expect(Math.max(...inputs)).toBeLessThan(LIMITS.transcriptBytes + newest + 64 * 1024);

    // The transcript cut the oldest replies, and says so in each; the newest is whole.
    const replies = messages.filter((m) => m.role === 'assistant').map((m) => m.content ?? '');
    expect(replies.at(-1)).toBe('done');
    expect(replies.at(-2)).toBe(controls);
    expect(replies.slice(0, -2).every((r) => r.includes('more bytes cut: over the size limit'))).toBe(true);
  });
});
