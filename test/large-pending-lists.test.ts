/**
 * A run whose sub-agents hold more waiting calls than one query answer may carry (src/workflows/listed-pending.ts):
 * 32 researchers with 32 calls of 6 KB each made the coordinator's lists about 10 MB, past what the server passes, and
 * every list of the run failed while they waited. Now each is cut shorter, and past that the first that fit are listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingApprovalQuery, pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { LIMITS } from '../src/contract/limits.js';
import { SHORTENED_BYTES } from '../src/workflows/listed-pending.js';
import { runHitl } from './helpers/cli.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const RESEARCHERS = 32;
const NOTES = 32;
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
let h: Harness;

beforeAll(async () => {
  const asks = Array.from({ length: RESEARCHERS }, (_, i) => call(`ask${i}`, 'ask_researcher', { prompt: 'research: many large notes' }));
  const notes = Array.from({ length: NOTES }, (_, i) => call(`note${i}`, 'write_file', { path: `n${i}.md`, content: 'n'.repeat(6000) }));
  h = await startHarness({
    script: {
      conversations: [
        { match: 'coordinate many researchers', replies: [{ toolCalls: asks }, { content: 'never' }] },
        { match: 'research: many large notes', replies: [{ toolCalls: notes }, { content: 'never' }] },
      ],
    },
  });
});
afterAll(async () => {
  await h?.close();
});

describe('pending lists larger than a query answer', () => {
  it('list every call cut short, then the first that fit, and each call can still be had whole', { timeout: 170_000 }, async () => {
    const handle = await h.start({ agent: 'coordinator', prompt: 'coordinate many researchers' });
    // Each researcher waits on its 32 notes and reports them to the coordinator.
    await waitFor(
      async () => {
        const state = await handle.query(runStateQuery);
        return state.morePending === true;
      },
      150_000,
      'more calls than one answer holds',
    );
    const listed = await handle.query(pendingApprovalsQuery);
    expect(listed.length).toBeGreaterThan(NOTES);
    expect(listed.length).toBeLessThan(RESEARCHERS * NOTES);
    expect(listed.every((p) => p.shortened === true && p.argsTruncated === true)).toBe(true);
    expect(listed.every((p) => Buffer.byteLength(p.description) <= SHORTENED_BYTES)).toBe(true);
    expect(bytes(listed)).toBeLessThanOrEqual(LIMITS.queryBytes);

    const state = await handle.query(runStateQuery);
    expect(state.pending.length).toBeLessThan(listed.length);
    expect(state.pending.map((p) => p.id)).toEqual(listed.slice(0, state.pending.length).map((p) => p.id));
    expect(bytes(state)).toBeLessThanOrEqual(LIMITS.queryBytes + 64 * 1024);

    // The CLI says the view holds only some of them.
    const shown = await runHitl(h, ['show', handle.workflowId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`More calls wait than these ${state.pending.length}: hitl pending lists more.`);

    // A call the lists leave out is still asked for by its id, whole.
    await waitFor(
      async () => (await handle.query(pendingApprovalQuery, `call-${RESEARCHERS}/call-${NOTES}`)) !== undefined,
      60_000,
      'the last call',
    );
    const last = await handle.query(pendingApprovalQuery, `call-${RESEARCHERS}/call-${NOTES}`);
    expect(last).toMatchObject({ toolName: 'write_file', args: { path: `n${NOTES - 1}.md`, content: 'n'.repeat(6000) } });
    expect(last!.shortened).toBeUndefined();
    await handle.terminate();
  });
});
