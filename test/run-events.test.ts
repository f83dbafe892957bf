/**
 * What a run tells watchers on its stream's `events` topic, read by the typed client's `subscribe()` from real
 * runs: a deadline that passes and fails the run, a session's queued message, a standing decision, a refused
 * signal, a canceled run, and texts cut to the event budget. (The common path, from step to finish, is in
 * client.test.ts; model text in model-streaming.test.ts.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HitlClient } from '../src/client/hitl-client.js';
import { streamEnd } from '../src/client/run-subscription.js';
import { LIMITS } from '../src/contract/limits.js';
import type { RunEvent } from '../src/schemas/run-event.js';
import { decide, signalDecision, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const write = (id: string) => call(id, 'write_file', { path: `${id}.txt`, content: id });
const LONG_REPLY = 'All of this is the answer. '.repeat(2000);

let h: Harness;
let hitl: HitlClient;
beforeAll(async () => {
  h = await startHarness({
    script: {
      conversations: [
        { match: 'events deadline', replies: [{ toolCalls: [write('w')] }, { content: 'never' }] },
        { match: 'events session', replies: [{ content: 'first answer' }, { content: 'second answer' }] },
        { match: 'events standing', replies: [{ toolCalls: [write('a'), write('b')] }, { content: 'both written' }] },
        { match: 'events cancel', replies: [{ toolCalls: [write('c')] }, { content: 'never' }] },
        { match: 'events long', replies: [{ content: LONG_REPLY }] },
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
});
afterAll(() => h?.close());

/** Every event of the run, from an offset, until it closes. */
async function eventsOf(workflowId: string, fromOffset = 0): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const item of hitl.subscribe(workflowId, { fromOffset })) if (item.topic === 'events') events.push(item.event);
  return events;
}

describe('run events', () => {
  it('tells of a deadline that passed, and of the run it failed', async () => {
    const handle = await h.start({
      agent: 'demo',
      prompt: 'events deadline',
      approval: { tools: { write_file: { timeout: '2s', onTimeout: 'fail' } } },
    });
    const events = await eventsOf(handle.workflowId);
    const timedOut = events.find((e) => e.type === 'approval_timed_out');
    expect(timedOut).toMatchObject({ entry: { id: 'call-1', type: 'timeout', via: 'timeout', toolName: 'write_file' } });
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', status: 'Failed', error: expect.stringContaining('onTimeout: fail') });
    expect(events.filter((e) => e.type === 'run_finished')).toEqual([]);
  });

  it("tells of a session's queued message, and of the session's end", async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'events session', session: { idleTimeout: '1h' } });
    const reading = eventsOf(handle.workflowId);
    await waitFor(async () => (await hitl.getRun(handle.workflowId)).status === 'AwaitingMessage');
    await hitl.say(handle.workflowId, 'and then?');
    await waitFor(
      async () => (await hitl.getRun(handle.workflowId)).step === 2 && (await hitl.getRun(handle.workflowId)).status === 'AwaitingMessage',
    );
    await hitl.endSession(handle.workflowId, 'the user \u202egone');
    const events = await reading;
    expect(events.filter((e) => e.type === 'message_queued')).toEqual([{ type: 'message_queued', content: 'and then?', queued: 1 }]);
    expect(events.filter((e) => e.type === 'status_changed').map((e) => e.type === 'status_changed' && e.status)).toEqual([
      'Running',
      'AwaitingMessage',
      'Running',
      'AwaitingMessage',
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'run_finished',
      status: 'Ended',
      output: 'second answer',
      steps: 2,
      ended: { by: 'request', reason: 'the user \u202egone' },
    });
  });

  it('tells of a standing decision settling the next call, and of a refused signal', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'events standing' });
    await waitForPending(handle, 2);
    await signalDecision(handle, { decisions: [{ id: 'call-9', type: 'approve' }], approver: 'ann' });
    await waitFor(async () => (await hitl.getRun(handle.workflowId)).decisions.length === 1);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve', always: true }], approver: 'ann' });
    const events = await eventsOf(handle.workflowId);
    expect(events.find((e) => e.type === 'decision_refused')).toMatchObject({
      entry: { via: 'signal', outcome: 'refused', id: 'call-9', refusal: { code: 'unknown_call' } },
    });
    const decided = events.flatMap((e) => (e.type === 'approval_decided' ? [[e.entry.id, e.entry.via, e.entry.approver]] : []));
    expect(decided).toEqual([
      ['call-1', 'update', 'ann'],
      ['call-2', 'always', 'ann'],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', status: 'Completed', output: 'both written' });
  });

  it('tells of a canceled run, to a reader whose poll was waiting when the cancel came', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'events cancel' });
    await waitForPending(handle, 1);
    // From the stream's end, the reader's first poll waits on the run: the cancel fails it with the run's cancellation.
    const reading = eventsOf(handle.workflowId, await streamEnd(h.temporal.client, handle.workflowId));
    await sleep(1000);
    await hitl.cancel(handle.workflowId);
    expect(await reading).toEqual([{ type: 'run_failed', status: 'Canceled' }]);
  });

  it('cuts long texts to the event budget (the run state keeps them whole)', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'events long' });
    const events = await eventsOf(handle.workflowId);
    const reply = events.find((e) => e.type === 'model_replied');
    const finished = events.find((e) => e.type === 'run_finished');
    for (const text of [reply?.type === 'model_replied' && reply.content, finished?.type === 'run_finished' && finished.output]) {
      expect(typeof text).toBe('string');
      expect(Buffer.byteLength(text as string)).toBeLessThanOrEqual(LIMITS.eventTextBytes);
      expect(text).toMatch(/more bytes cut: over the size limit\]$/);
    }
    expect((await hitl.result(handle.workflowId)).output).toBe(LONG_REPLY);
  });
});
