/**
 * The bench's floor that pauses like ours (bench/floor/workflows.ts, `npm run bench:decision --
 * --floor-paused-like-ours`) must write at its pause what the agent workflow writes at its own, and no more in the
 * task that applies its decision: otherwise what it tells of the gap to the bare floor is wrong. Both run here on a
 * real server and worker, and their histories are compared.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorActivities } from '../bench/floor/activities.js';
import { floorDecideUpdate, floorReadyQuery } from '../bench/floor/workflows.js';
import { BENCH_DIR } from '../bench/ipc.js';
import { eventTypeName as typeOf, type HistoryEvent } from '../bench/scenarios/history.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { uniqueName } from './helpers/temporal.js';

const write = { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'like.txt', content: 'x' } }] };

let h: Harness;
let floorWorker: Worker;
let floorRunning: Promise<void>;
const floorQueue = uniqueName('floor');

beforeAll(async () => {
  h = await startHarness({ script: { conversations: [{ match: 'pause like', replies: [write, { content: 'written' }] }] } });
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.join(BENCH_DIR, 'floor', 'workflows.ts'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  floorWorker = await Worker.create({
    connection: h.temporal.nativeConnection,
    namespace: h.temporal.namespace,
    taskQueue: floorQueue,
    workflowBundle: { code },
    activities: floorActivities,
  });
  floorRunning = floorWorker.run();
}, 120_000);
afterAll(async () => {
  floorWorker?.shutdown();
  await floorRunning;
  await h?.close();
});

/** The events the last workflow task of a paused run wrote after its completion. */
async function pauseEvents(handle: WorkflowHandle): Promise<HistoryEvent[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  const completed = events.map((e) => Boolean(e.workflowTaskCompletedEventAttributes)).lastIndexOf(true);
  return events.slice(completed + 1);
}

/** The events of the workflow task that scheduled `activity`, after its completion. */
async function decisionTaskEvents(handle: WorkflowHandle, activity: string): Promise<string[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activity);
  const completed = events
    .slice(0, scheduled)
    .map((e) => Boolean(e.workflowTaskCompletedEventAttributes))
    .lastIndexOf(true);
  return events.slice(completed + 1, scheduled + 1).map(typeOf);
}

const memoBytes = (events: HistoryEvent[]) =>
  events.find((e) => e.workflowPropertiesModifiedEventAttributes)?.workflowPropertiesModifiedEventAttributes?.upsertedMemo?.fields?.[
    'pendingApprovals'
  ]?.data?.length ?? 0;
const searchAttributeNames = (events: HistoryEvent[]) =>
  Object.keys(
    events.find((e) => e.upsertWorkflowSearchAttributesEventAttributes)?.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes
      ?.indexedFields ?? {},
  ).sort();

describe('the floor that pauses like ours', () => {
  it("writes at its pause what ours writes, and in its decision's task what ours writes there", { timeout: 60_000 }, async () => {
    const ours = await h.start({ agent: 'demo', prompt: 'Please pause like a gated write' });
    await waitForPending(ours, 1);
    const floor = await h.temporal.client.workflow.start('floorPausedLikeOursWorkflow', {
      taskQueue: floorQueue,
      workflowId: uniqueName('floor-paused-like-ours'),
      args: [],
    });
    expect(await floor.query(floorReadyQuery)).toBe(true);

    const ourPause = await pauseEvents(ours);
    const floorPause = await pauseEvents(floor);
    expect(ourPause.map(typeOf)).toEqual(['UpsertWorkflowSearchAttributes', 'WorkflowPropertiesModified', 'TimerStarted']);
    expect(floorPause.map(typeOf)).toEqual(ourPause.map(typeOf));
    expect(searchAttributeNames(floorPause)).toEqual(searchAttributeNames(ourPause));
    // A memo of about the size of ours for one pending call (its tool's arguments differ a little).
    expect(memoBytes(floorPause)).toBeGreaterThan(memoBytes(ourPause) * 0.75);
    expect(memoBytes(floorPause)).toBeLessThan(memoBytes(ourPause) * 1.25);

    await decide(ours, { decisions: [{ type: 'approve' }] });
    await floor.executeUpdate(floorDecideUpdate, { args: [{ decisions: [{ type: 'approve' }] }] });
    expect((await ours.result()).status).toBe('Completed');
    expect(await floor.result()).toBe('done');
    // Neither cancels its deadline timer before the tool starts.
    expect(await decisionTaskEvents(floor, 'floorTool')).toEqual(await decisionTaskEvents(ours, 'executeTool'));
    expect(await decisionTaskEvents(floor, 'floorTool')).toEqual([
      'WorkflowExecutionUpdateAccepted',
      'WorkflowExecutionUpdateCompleted',
      'ActivityTaskScheduled',
    ]);
  });
});
