/**
 * The run stream in a small workflow of its own. Across continue-as-new, as the agent workflow carries it: the state
 * goes over in the input, offsets go on where they stopped, and a subscriber follows the chain. A carried state the
 * library could not load starts an empty stream instead of failing the new run's first workflow task. And polls
 * that went idle make room for new ones, which needs a shorter idle time than the agent's minute.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowUpdateStage } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WorkflowStreamClient } from '@temporalio/workflow-streams/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../src/schemas/run-event.js';
import { runStreamItemsQuery } from '../src/contract/messages.js';
import { DEFAULT_RUN_STREAM_LIMITS } from '../src/workflows/run-stream.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { POLL, pollRefusal, streamHistory } from './helpers/stream.js';
import { uniqueName } from './helpers/temporal.js';

let h: Harness;

beforeAll(async () => {
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.resolve('test/fixtures/run-stream/hand-off-workflow.ts'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => console.error(m) },
  });
  const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-hand-off-')), 'workflows.js');
  writeFileSync(bundlePath, code);
  h = await startHarness({ bundlePath, script: { conversations: [] } });
});
afterAll(() => h?.close());

const start = (input: unknown) =>
  h.temporal.client.workflow.start('handOffWorkflow', { args: [input], taskQueue: h.taskQueue, workflowId: uniqueName('hand-off') });

describe('the run stream across continue-as-new', () => {
  it('carries its log, keeps offsets going, and a subscriber follows the runs', async () => {
    const handle = await start({ round: 1, rounds: 3 });
    const seen: { offset: number; step: number }[] = [];
    const events = WorkflowStreamClient.create(h.temporal.client, handle.workflowId).topic<RunEvent>('events');
    for await (const item of events.subscribe(0, { pollCooldown: 20 })) {
      if (item.data.type === 'step_started') seen.push({ offset: item.offset, step: item.data.step });
      // Each round waits for this signal before it continues as new (or, the last, finishes); the latest run gets it.
      await h.temporal.client.workflow.getHandle(handle.workflowId).signal('nextRound');
    }
    expect(await h.temporal.client.workflow.getHandle(handle.workflowId).result()).toBe(3);
    expect(seen).toEqual([
      { offset: 0, step: 1 },
      { offset: 1, step: 2 },
      { offset: 2, step: 3 },
    ]);
  });

  it('starts an empty stream when the carried state cannot be loaded, instead of failing the run', async () => {
    const handle = await start({
      round: 1,
      rounds: 1,
      stream: {
        log: [{ topic: 'events', data: '!!! not base64 !!!', offset: 0 }],
        base_offset: 7,
        publisher_sequences: {},
        publisher_last_seen: {},
      },
    });
    await handle.signal('nextRound');
    expect(await handle.result()).toBe(1);
    expect((await streamHistory(handle)).taskFailures).toEqual([]);
    const all = await handle.query(runStreamItemsQuery, { topics: [], from_offset: 0 });
    expect(all.items.map((item) => item.offset)).toEqual([0]);
  });

  it('a new poll releases the one that has waited longest, once it has waited idlePollMs, so gone watchers do not keep the rest out', async () => {
    const handle = await start({ round: 1, rounds: 1, idlePollMs: 2000 });
    await waitFor(async () => (await handle.query(runStreamItemsQuery, { topics: [], from_offset: 0 })).next_offset === 1);
    const poll = { topics: [], from_offset: 1 };
    // Five watchers that went away: their polls wait for an item that does not come.
    const parked = [];
    for (let i = 0; i < DEFAULT_RUN_STREAM_LIMITS.maxWaitingPolls; i++) {
      parked.push(await handle.startUpdate(POLL, { args: [poll], waitForStage: WorkflowUpdateStage.ACCEPTED }));
    }
    const settled = parked.map((p) => p.result().then((result) => result));
    const released = () => Promise.all(settled.map((p) => Promise.race([p.then(() => true), sleep(300).then(() => false)])));
    // Not idle yet: a sixth is refused, and nothing is released.
    expect(await pollRefusal(handle, poll)).toBe('StreamBusy');
    expect(await released()).toEqual([false, false, false, false, false]);
    await sleep(2500);
    // Idle now: the sixth is taken, and the oldest is answered with nothing, at the offset it asked for.
    const sixth = await handle.startUpdate(POLL, { args: [poll], waitForStage: WorkflowUpdateStage.ACCEPTED });
    expect(await settled[0]).toEqual({ items: [], next_offset: 1, more_ready: false });
    expect(await released()).toEqual([true, false, false, false, false]);
    // The rest still wait, and get the next item as before.
    await handle.signal('nextRound');
    expect(await handle.result()).toBe(1);
    expect((await streamHistory(handle)).taskFailures).toEqual([]);
    void sixth.result().catch(() => undefined);
    for (const p of settled.slice(1)) void p.catch(() => undefined);
  });
});
