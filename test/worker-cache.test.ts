/**
 * A bounded workflow cache: paused runs beyond it are evicted and cost the worker no memory; each one is rebuilt
 * from its history when its decision arrives, and finishes exactly as a cached one would.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { decide, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const RUNS = 6;
const CACHE = 2;

const writer = defineAgent({
  name: 'writer',
  instructions: 'Write the file you are asked to write.',
  tools: ['write_file'],
  approval: { tools: { write_file: true } },
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    agents: { writer },
    maxCachedRuns: CACHE,
    script: {
      conversations: Array.from({ length: RUNS }, (_, i) => ({
        match: `write note ${i}`,
        replies: [
          { toolCalls: [{ id: `w${i}`, name: 'write_file', arguments: { path: `note-${i}.txt`, content: `${i}` } }] },
          { content: 'Written.' },
        ],
      })),
    },
  });
});
afterAll(() => h?.close());

it('keeps at most maxCachedRuns runs in memory, and every evicted paused run still finishes on its decision', async () => {
  const handles = await Promise.all(Array.from({ length: RUNS }, (_, i) => h.start({ agent: 'writer', prompt: `write note ${i}` })));
  const pending = await Promise.all(handles.map((handle) => waitForPending(handle, 1)));
  expect(h.worker.getStatus().numCachedWorkflows).toBeLessThanOrEqual(CACHE);

  await Promise.all(
    handles.map((handle, i) => decide(handle, { decisions: [{ id: pending[i]![0]!.id, type: 'approve' }], approver: 'alice' })),
  );
  const results = await Promise.all(handles.map((handle) => handle.result()));
  expect(results.map((r) => r.status)).toEqual(Array(RUNS).fill('Completed'));
  for (let i = 0; i < RUNS; i++) {
    expect(readFileSync(path.join(h.dataDir, 'workspace', `note-${i}.txt`), 'utf8')).toBe(`${i}`);
    expect(await toolMessages(handles[i]!)).toEqual([[`w${i}`, `Wrote 1 bytes to note-${i}.txt.`]]);
  }
});
