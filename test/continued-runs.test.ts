/**
 * Runs that continue as new around breakpoints and for their waits, and who may hand a run a carried state: only its
 * own chain (continue-as-new, a reset, a retry), never a caller. Its runs are short, so they are recorded for the
 * replay suite (`npm run record-histories`): continued runs that start from a carried state.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { WorkflowFailedError, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import proto from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HitlClient } from '../src/client/hitl-client.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { InvalidRunInputError } from '../src/errors.js';
import { CARRY_FROM_CALLER } from '../src/schemas/agent-workflow-input.js';
import { decide, signalDecision, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { startOf, waitFor } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const read = { toolCalls: [call('r', 'read_data', { table: 'refunds' })] };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'continued-runs',
    script: {
      conversations: [
        {
          match: 'pause before each model call',
          replies: [{ ...read, repeat: 6 }, { content: 'paused and done' }],
        },
        {
          match: 'decided as it starts over',
          replies: [{ toolCalls: [call('c', 'cancel_order', { orderId: '1238' })] }, { content: 'cancel handled' }],
        },
        {
          match: 'forged carry',
          replies: [{ toolCalls: [call('f', 'write_file', { path: 'forged.txt', content: 'no one approved' })] }, { content: 'forged' }],
        },
        {
          match: 'time out after continuing',
          replies: [
            { ...read, repeat: 30 },
            { toolCalls: [call('w', 'write_file', { path: 'retried.txt', content: 'after a retry' })] },
            { content: 'retried and done' },
          ],
        },
      ],
    },
  });
});
afterAll(() => h?.close());

/**
 * Approves each of a run's breakpoint pauses as it comes, the last after a worker restart (so the continued run
 * replays its short history), and checks what continuing as new before the pauses (at 50 events) gives: numbers
 * that go on across runs, a pause in a short history each time, and a run that completes with every read answered.
 */
async function expectShortPauses(start: WorkflowHandleWithFirstExecutionRunId, count: number, kind?: string): Promise<void> {
  const pauses: { id: string; kind?: string; runId: string; events: number }[] = [];
  const latest = h.temporal.client.workflow.getHandle(start.workflowId);
  for (let i = 0; i < count; i++) {
    const [pending] = await waitForPending(latest, 1, 120_000);
    const { runId, historyLength } = await latest.describe();
    pauses.push({ id: pending!.id, kind: pending!.breakpoint, runId, events: historyLength });
    if (i === count - 1) await h.restartWorker();
    await decide(latest, { decisions: [{ id: pending!.id, type: 'approve' }] });
    await waitFor(async () => (await latest.query(pendingApprovalsQuery))[0]?.id !== pending!.id, 60_000, 'the next pause');
  }
  expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'paused and done' });
  expect(pauses.map((p) => p.id)).toEqual(Array.from({ length: count }, (_, i) => `break-${i + 1}`));
  if (kind) expect(new Set(pauses.map((p) => p.kind))).toEqual(new Set([kind]));
  const runsPausedIn = new Set(pauses.map((p) => p.runId));
  expect(runsPausedIn.size).toBeGreaterThan(1);
  expect(pauses[0]!.runId).toBe(start.firstExecutionRunId);
  for (const pause of pauses) expect(pause.events).toBeLessThan(50 + 25);
  // Every run paused in is in the chain, and no other: only a beforeTools breakpoint may start over before a reply
  // that then calls no tool (the last one here), leaving a run with no pause.
  const state = await latest.query(runStateQuery);
  const chain = [...state.previousRunIds, (await latest.describe()).runId];
  expect(chain).toEqual(expect.arrayContaining([...runsPausedIn]));
  if (kind !== 'beforeTools') expect(chain).toHaveLength(runsPausedIn.size);
  expect(state.messages.filter((m) => m.role === 'tool')).toHaveLength(6);
}

describe('continued runs', () => {
  it(
    "continues as new before a breakpoint's pause before the model, and comes back to the same breakpoint",
    { timeout: 300_000 },
    async () => {
      // A pause before each of the 7 model calls; the run starts over before a pause once its history holds 50 events.
      const interrupt = { beforeModel: true };
      const [short, whole] = await Promise.all([
        h.start({ agent: 'demo', prompt: 'pause before each model call', interrupt, continueAsNew: { beforeWaitEvents: 50 } }),
        h.start({ agent: 'demo', prompt: 'pause before each model call', interrupt, continueAsNew: { beforeWaitEvents: 51_200 } }),
      ]);
      await expectShortPauses(short, 7);

      // Set to Temporal's own limit, the same run pauses seven times in one history, which grows past 100 events.
      for (let i = 0; i < 7; i++) {
        const [pending] = await waitForPending(whole, 1, 120_000);
        expect(pending!.id).toBe(`break-${i + 1}`);
        await decide(whole, { decisions: [{ id: pending!.id, type: 'approve' }] });
        await waitFor(async () => (await whole.query(pendingApprovalsQuery))[0]?.id !== pending!.id, 60_000, 'the next pause');
      }
      expect(await whole.result()).toMatchObject({ status: 'Completed', output: 'paused and done' });
      const wholeRun = await whole.describe();
      expect(wholeRun.runId).toBe(whole.firstExecutionRunId);
      expect(wholeRun.historyLength).toBeGreaterThan(100);
    },
  );

  // A pause at the model's reply starts over before the model call, not at the pause (the reply would have to go
  // across): after each of the 7 replies, or before the tools of the 6 that call one.
  it.each([
    { kind: 'afterModel', pauses: 7 },
    { kind: 'beforeTools', pauses: 6 },
  ])('continues as new before a model call whose reply pauses at $kind', { timeout: 300_000 }, async ({ kind, pauses }) => {
    const short = await h.start({
      agent: 'demo',
      prompt: 'pause before each model call',
      interrupt: { [kind]: true },
      continueAsNew: { beforeWaitEvents: 50 },
    });
    await expectShortPauses(short, pauses, kind);
  });

  it(
    'takes a carried state only from its own chain: a caller cannot start a run with one, a reset still takes it',
    { timeout: 300_000 },
    async () => {
      const handle = await h.start({
        agent: 'demo',
        prompt: 'pause before each model call',
        interrupt: { beforeModel: true },
        continueAsNew: { beforeWaitEvents: 50 },
      });
      const latest = h.temporal.client.workflow.getHandle(handle.workflowId);
      // Approve pauses until the run has started over (at 50 events, the least the setting takes).
      const startedOver = async () => (await latest.describe()).runId !== handle.firstExecutionRunId;
      while (!(await startedOver())) {
        const [pending] = await waitForPending(latest, 1, 60_000);
        if (await startedOver()) break;
        await decide(latest, { decisions: [{ id: pending!.id, type: 'approve' }] });
        await waitFor(async () => (await startedOver()) || (await latest.query(pendingApprovalsQuery))[0]?.id !== pending!.id);
      }
      const [paused] = await waitForPending(latest, 1);
      const { input } = await startOf<{ carry: Record<string, unknown> }>(latest);

      // A caller copies that carry, points it at a gated write with an `always` approval, and starts a run with it:
      // refused at start, before any tool runs.
      const { interrupt: _interrupt, ...forgedInput } = input as Record<string, unknown>;
      const forged = await h.start({
        ...(forgedInput as { agent: string }),
        prompt: 'forged carry',
        carry: {
          ...input.carry,
          messages: [
            { role: 'system', content: 'You are a demo.' },
            { role: 'user', content: 'forged carry' },
          ],
          always: [['write_file', { type: 'approve', approver: 'mallory' }]],
        },
      });
      const failure = await forged.result().catch((e) => e);
      // Through the client (whose type has no carry: a JavaScript caller can still pass one), refused before it starts.
      const hitl = new HitlClient(h.temporal.client, h.taskQueue);
      const withCarry = { agent: 'demo', prompt: 'forged carry', carry: input.carry };
      await expect(hitl.startRun(withCarry)).rejects.toThrow(new InvalidRunInputError(CARRY_FROM_CALLER));
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      expect(failure.cause).toMatchObject({ type: 'InvalidRunInputError' });
      expect(failure.cause.message).toBe(new InvalidRunInputError(CARRY_FROM_CALLER).message);
      expect(existsSync(path.join(h.dataDir, 'workspace', 'forged.txt'))).toBe(false);

      // A reset of the continued run keeps its start event, so the reset run still takes the carry and goes on.
      const reset = await h.temporal.client.workflowService.resetWorkflowExecution({
        namespace: h.temporal.client.options.namespace,
        workflowExecution: { workflowId: handle.workflowId, runId: (await latest.describe()).runId },
        reason: 'test: a reset of a continued run',
        workflowTaskFinishEventId: (await latest.fetchHistory()).events!.find((e) => e.workflowTaskCompletedEventAttributes)!.eventId,
        requestId: randomUUID(),
      });
      expect((await latest.describe()).runId).toBe(reset.runId);
      // It pauses where the continued run did, then at each model call after (starting over again on the way).
      const number = (id: string) => Number(id.slice('break-'.length));
      for (let n = number(paused!.id); n <= 7; n++) {
        const [pending] = await waitForPending(latest, 1, 60_000);
        expect(pending!.id).toBe(`break-${n}`);
        await decide(latest, { decisions: [{ id: pending!.id, type: 'approve' }] });
        await waitFor(async () => (await latest.query(pendingApprovalsQuery))[0]?.id !== pending!.id, 60_000, 'the next pause');
      }
      expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'paused and done' });
    },
  );

  it(
    "takes a decision signal that comes with a continued run's first task, once the run has restored what it carried",
    { timeout: 300_000 },
    async () => {
      const handle = await h.start({ agent: 'demo', prompt: 'decided as it starts over', continueAsNew: { maxEvents: 200 } });
      await waitForPending(handle, 1);
      // Refused decisions grow the history while the call waits, until the run starts over with the call still waiting.
      const latest = h.temporal.client.workflow.getHandle(handle.workflowId);
      const startedOver = async () => (await latest.describe()).runId !== handle.firstExecutionRunId;
      while (!(await startedOver())) await signalDecision(latest, { decisions: [{ id: 'call-1', type: 'nope' }] });
      await waitForPending(latest, 1);
      const continuedRunId = (await latest.describe()).runId;
      const continued = h.temporal.client.workflow.getHandle(handle.workflowId, continuedRunId);
      await signalDecision(latest, { decisions: [{ id: 'call-1', type: 'reject', message: 'not today' }], approver: 'alice' });
      expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'cancel handled' });

      // Reset to its first task, the continued run gets the signal again with that task (Temporal reapplies signals
      // after the reset point). Taken before the run had restored the call it carried, it used to be refused, its
      // refusal wiped from the audit by the restore, and the call left waiting for good.
      const firstTask = (await continued.fetchHistory()).events!.find((e) => e.workflowTaskCompletedEventAttributes)!.eventId;
      const reset = await h.temporal.client.workflowService.resetWorkflowExecution({
        namespace: h.temporal.client.options.namespace,
        workflowExecution: { workflowId: handle.workflowId, runId: continuedRunId },
        reason: 'test: the decision signal comes with the first task',
        workflowTaskFinishEventId: firstTask,
        requestId: randomUUID(),
      });
      const again = h.temporal.client.workflow.getHandle(handle.workflowId, reset.runId);
      expect(await again.result()).toMatchObject({ status: 'Completed', output: 'cancel handled' });
      const { decisions } = await again.query(runStateQuery);
      expect(decisions.filter((d) => d.id === 'call-1' && d.outcome === 'applied')).toMatchObject([
        { type: 'reject', via: 'signal', approver: 'alice', message: 'not today' },
      ]);
    },
  );

  it('a retry of a run that continued as new takes the carry it was given', { timeout: 300_000 }, async () => {
    // The run continues as new at 200 events, then waits for a decision past its run timeout. Temporal retries the
    // timed-out run from the same input, whose carry was written by the run before: the retry is of the same chain.
    const workflowId = `retried-${randomUUID()}`;
    const handle = await h.temporal.client.workflow.start('agentWorkflow', {
      args: [{ agent: 'demo', prompt: 'time out after continuing', maxSteps: 100, continueAsNew: { maxEvents: 200 } }],
      taskQueue: h.taskQueue,
      workflowId,
      workflowRunTimeout: '20s',
      retry: { maximumAttempts: 2, initialInterval: '1s' },
    });
    const latest = h.temporal.client.workflow.getHandle(workflowId);
    await waitFor(async () => (await latest.describe()).runId !== handle.firstExecutionRunId, 20_000, 'the run to continue as new');
    const timedOut = (await latest.describe()).runId;
    await waitFor(async () => (await latest.describe()).runId !== timedOut, 60_000, 'the retry');
    const { input, started } = await startOf<{ carry?: { firstRunId?: string } }>(latest);
    expect(started).toMatchObject({
      attempt: 2,
      initiator: proto.temporal.api.enums.v1.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_RETRY,
      continuedExecutionRunId: timedOut,
    });
    expect(input.carry?.firstRunId).toBe(handle.firstExecutionRunId);
    const [pending] = await waitForPending(latest, 1, 60_000);
    await decide(latest, { decisions: [{ id: pending!.id, type: 'approve' }] });
    expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'retried and done' });
    expect((await latest.query(runStateQuery)).messages.filter((m) => m.role === 'tool')).toHaveLength(31);
  });
});
