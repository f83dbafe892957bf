/**
 * The workflow task that applies a decision starts the approved tool and nothing else. What lists read of the run
 * (search attributes, memo) and the cancellation of the call's deadline timer follow in the run's next step: the
 * tool's result, or the tool's own wake-up (the `hitl.listingsDue` signal) about a second after it started while it
 * still runs. A decision that starts no tool is listed at once, and so is one whose tool runs as a local activity.
 * Queries answer exactly throughout.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { listingsDueSignal, pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { HitlPendingCount, HitlStatus } from '../src/contract/search-attributes.js';
import { decide, refusalOf, signalDecision, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { eventTypeName as typeOf } from '../bench/scenarios/history.js';
import { replayOnSuiteBundle, timerSummaries, waitFor } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const write = (path: string) => ({ toolCalls: [call('w', 'write_file', { path, content: 'x' })] });

/** read_data runs as a local activity; here it needs an approval. */
const reader = defineAgent({
  name: 'reader',
  instructions: 'You read data.',
  tools: ['read_data'],
  approval: { tools: { read_data: true } },
});
const readRefunds = { toolCalls: [call('r', 'read_data', { table: 'refunds' })] };
/** How long read_data takes: longer than lists may lag behind a decision. */
const READ_MS = 1500;

/** Paths whose write holds until the test lets it go. */
const held = new Map<string, { started: boolean; release: () => void; done: Promise<void> }>();

/** Holds the write of `path` (once it has started) until `release()`. */
function holdWrite(path: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  const hold = { started: false, release, done };
  held.set(path, hold);
  return hold;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'decision-task',
    agents: { reader },
    wrapTools: (tools) => ({
      ...tools,
      read_data: {
        ...tools.read_data!,
        run: async (args, ctx) => {
          await sleep(READ_MS);
          return tools.read_data!.run(args, ctx);
        },
      },
      write_file: {
        ...tools.write_file!,
        run: async (args, ctx) => {
          const hold = held.get((args as { path: string }).path);
          if (hold) {
            hold.started = true;
            await hold.done;
          }
          return tools.write_file!.run(args, ctx);
        },
      },
    }),
    script: {
      conversations: [
        { match: 'fast by update', replies: [write('fast-update.txt'), { content: 'written' }] },
        { match: 'fast by signal', replies: [write('fast-signal.txt'), { content: 'written' }] },
        { match: 'slow tool', replies: [write('slow.txt'), { content: 'written' }] },
        { match: 'stray wake-up', replies: [write('stray.txt'), { content: 'written' }] },
        { match: 'rejected', replies: [write('rejected.txt'), { content: 'not written' }] },
        { match: 'refused update', replies: [write('refused-update.txt'), { content: 'written' }] },
        { match: 'read the refunds', replies: [readRefunds, { content: 'read' }] },
      ],
    },
  });
});
afterAll(() => h?.close());

/** The events of the workflow task that scheduled the tool's activity, from its completion to that activity. */
async function decisionTaskEvents(handle: WorkflowHandle): Promise<{ task: string[]; after: string[] }> {
  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'executeTool');
  const completed = events
    .slice(0, scheduled)
    .map((e) => Boolean(e.workflowTaskCompletedEventAttributes))
    .lastIndexOf(true);
  return { task: events.slice(completed + 1, scheduled + 1).map(typeOf), after: events.slice(scheduled + 1).map(typeOf) };
}

async function listed(handle: WorkflowHandle): Promise<{ status?: string; pending?: number }> {
  const attrs = (await handle.describe()).typedSearchAttributes;
  return { status: attrs.get(HitlStatus), pending: attrs.get(HitlPendingCount) };
}

describe("a decision's workflow task", () => {
  it.each([
    ['update', 'Write it fast by update'],
    ['signal', 'Write it fast by signal'],
  ])('starts the approved tool with nothing else, by %s; lists and the deadline timer follow in the next step', async (via, prompt) => {
    const handle = await h.start({ agent: 'demo', prompt });
    await waitForPending(handle, 1);
    expect(await listed(handle)).toEqual({ status: 'AwaitingApproval', pending: 1 });
    if (via === 'update') await decide(handle, { decisions: [{ type: 'approve' }] });
    else await signalDecision(handle, { decisions: [{ type: 'approve' }] });
    expect((await handle.result()).status).toBe('Completed');

    const { task, after } = await decisionTaskEvents(handle);
    // The task starts the tool and nothing else: no timer, no upsert, no cancellation (the events of the floor's task).
    expect(task.filter((t) => !/^WorkflowExecutionUpdate(Accepted|Completed)$/.test(t))).toEqual(['ActivityTaskScheduled']);
    // The run's next step (the tool's result, or its wake-up on a slow machine) cancels the deadline and lists the run.
    const next = after.slice(after.indexOf('WorkflowTaskCompleted') + 1);
    const nextTask = next.slice(
      0,
      next.findIndex((t) => !/^(TimerCanceled|UpsertWorkflowSearchAttributes|WorkflowPropertiesModified)$/.test(t)),
    );
    expect(nextTask).toContain('UpsertWorkflowSearchAttributes');
    expect(nextTask).toContain('WorkflowPropertiesModified');
    expect(nextTask).toContain('TimerCanceled');
    expect(await timerSummaries(handle)).toEqual(['approval · write_file · call-1']);
    await waitFor(async () => (await listed(handle)).status === 'Completed', 30_000, 'the run listed as completed');
    expect((await listed(handle)).pending).toBe(0);
  });

  it('lists the run as running within about a second while the tool still runs', async () => {
    const hold = holdWrite('slow.txt');
    const handle = await h.start({ agent: 'demo', prompt: 'A slow tool' });
    try {
      await waitForPending(handle, 1);
      await decide(handle, { decisions: [{ type: 'approve' }] });
      // The query is exact at once; the listing catches up when the held tool wakes its run.
      expect(await handle.query(pendingApprovalsQuery)).toEqual([]);
      await waitFor(async () => (await listed(handle)).pending === 0, 30_000, 'the listing to catch up');
      expect(hold.started).toBe(true);
      expect(await listed(handle)).toEqual({ status: 'Running', pending: 0 });
      const events = (await handle.fetchHistory()).events ?? [];
      const signals = events.flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []);
      expect(signals).toEqual([listingsDueSignal.name]);
      expect(events.map(typeOf)).not.toContain('TimerFired');
    } finally {
      hold.release();
    }
    expect((await handle.result()).status).toBe('Completed');
  });

  it('takes a listingsDue signal from anyone, with anything, as a wake-up and nothing more', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A stray wake-up' });
    const pending = await waitForPending(handle, 1);
    const before = await handle.query(runStateQuery);
    await handle.signal('hitl.listingsDue', { decisions: [{ type: 'approve' }] }, 'extra');
    await handle.signal(listingsDueSignal);
    await waitFor(
      async () => ((await handle.fetchHistory()).events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes).length === 2,
      30_000,
      'both signals in history',
    );
    // Still waiting for the same call, listed as before; nothing was decided.
    expect(await handle.query(pendingApprovalsQuery)).toEqual(pending);
    expect((await handle.query(runStateQuery)).decisions).toEqual(before.decisions);
    expect(await listed(handle)).toEqual({ status: 'AwaitingApproval', pending: 1 });
    await decide(handle, { decisions: [{ type: 'approve' }] });
    expect((await handle.result()).status).toBe('Completed');
  });

  it('lists a decision that starts no tool at once', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'This gets rejected' });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ type: 'reject', message: 'no' }] });
    const events = (await handle.fetchHistory()).events ?? [];
    const accepted = events.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
    const task = events.slice(accepted, events.findIndex((e, i) => i > accepted && e.workflowExecutionUpdateCompletedEventAttributes) + 1);
    expect(task.map(typeOf)).toContain('UpsertWorkflowSearchAttributes');
    expect(await timerSummaries(handle)).not.toContain('lists catch up with a decision');
    expect((await handle.result()).status).toBe('Completed');
  });

  it('lists a decided local tool before it starts, so a query that cuts its task changes nothing on replay', async () => {
    // A local activity's result reaches a replay in the first workflow task even when a query cut that task live
    // (activation-jobs.ts): listings left waiting across it could be published from another state on replay.
    const handle = await h.start({ agent: 'reader', prompt: 'Please read the refunds' });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ type: 'approve' }] });
    // Sent while the read runs: Core may end the read's task early to answer it (a cut).
    const state = handle.query(runStateQuery);
    expect((await handle.result()).status).toBe('Completed');
    expect((await state).pending).toEqual([]);
    const events = ((await handle.fetchHistory()).events ?? []).map(typeOf);
    const accepted = events.indexOf('WorkflowExecutionUpdateAccepted');
    expect(events.slice(accepted, events.indexOf('MarkerRecorded', accepted))).toContain('UpsertWorkflowSearchAttributes');
    expect(await timerSummaries(handle)).not.toContain('lists catch up with a decision');
    await expect(replayOnSuiteBundle(await handle.fetchHistory(), handle.workflowId, 'decision-task')).resolves.toBeUndefined();
  });

  it('replays a run that refused an update while its listings waited', async () => {
    const hold = holdWrite('refused-update.txt');
    const handle = await h.start({ agent: 'demo', prompt: 'A refused update while the tool runs' });
    try {
      await waitForPending(handle, 1);
      await decide(handle, { decisions: [{ type: 'approve' }] });
      await waitFor(() => hold.started, 30_000, 'the tool to start');
      // Refused by the validator: the workflow task that carried it leaves no trace in history, so nothing the run
      // left for its next step may be done there (it would be done elsewhere on replay).
      expect((await refusalOf(decide(handle, { decisions: [{ id: 'call-7', type: 'approve' }] }))).code).toBe('unknown_call');
    } finally {
      hold.release();
    }
    expect((await handle.result()).status).toBe('Completed');
    await expect(replayOnSuiteBundle(await handle.fetchHistory(), handle.workflowId, 'decision-task')).resolves.toBeUndefined();
  });
});
