/**
 * A local tool's result that reaches the run late, with an update or a signal that came meanwhile.
 *
 * A query that rides on the workflow task of a local tool makes Core end that task early: the tool's marker goes out
 * with it, and the run gets the result in the next task, together with whatever reached the server while the first
 * ran. A replay gets the result in the first task. A stream poll accepted in that next task was accepted before the
 * next model call live and after it on replay: the closed run failed every query and replay with a nondeterminism
 * error (seen in CI in test/stream-follow.test.ts, where a watcher polls as the run starts). Now the run refuses
 * updates in that activation as busy (clients send them again). A signal there replays as it is.
 *
 * The task that applies the approval is held 700 ms on the worker (test/fixtures/slow-decision-task.ts), as on a
 * loaded machine, so that what is sent meanwhile rides on the next task. Each scenario is tried up to three times
 * until the probe lands in the late result's activation; every run, landed or not, must replay. The last scenario
 * is a user's: an approval sent over the HTTP API at that moment, which the API's client sends again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ApplicationFailure,
  Client,
  WorkflowUpdateFailedError,
  type WorkflowClientInterceptor,
  type WorkflowHandle,
} from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import type { Listening } from '../src/api/listen.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { decideUpdate, decisionSignal, pendingApprovalsQuery, runStateQuery, streamPollUpdate } from '../src/contract/messages.js';
import { RUN_BUSY_TYPE } from '../src/contract/refusal-codes.js';
import { itemConverter, readItems } from '../src/client/run-subscription.js';
import type { RunStreamItem } from '../src/schemas/run-event.js';
import { bundleWithInterceptors } from './helpers/bundle-variant.js';
import { signalDecision, waitForPending } from './helpers/decisions.js';
import { startTestApi } from './helpers/api.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { replayOnSuiteBundle, waitFor } from './helpers/history.js';

const reader = defineAgent({
  name: 'reader',
  instructions: 'You read data.',
  tools: ['read_data'],
  interrupt: { beforeTools: { tools: ['read_data'] } },
});
/** The same breakpoint, and a gated write in the same step: a decision for the write can come while the read's result is late. */
const readerWriter = defineAgent({
  name: 'reader-writer',
  instructions: 'You read data and write files.',
  tools: ['read_data', 'write_file'],
  interrupt: { beforeTools: { tools: ['read_data'] } },
  approval: { tools: { write_file: true } },
});
const call = (id: string) => ({ id, name: 'read_data', arguments: { table: 'refunds' } });
const write = { id: 'w1', name: 'write_file', arguments: { path: 'late.txt', content: 'written after a late read' } };
const script = {
  conversations: [
    { match: 'read once', replies: [{ toolCalls: [call('r1')] }, { content: 'read once, done' }] },
    { match: 'read and write', replies: [{ toolCalls: [call('r1'), write] }, { content: 'read and wrote' }] },
  ],
};
const TOKEN = 'alice-token-0123456789';

type Probe = (handle: WorkflowHandle) => Promise<{ landed: () => Promise<boolean> }>;

describe('a local tool whose result reaches the run late', () => {
  let h: Harness;
  let heldBundle: string;
  let api: Listening;
  const decideOutcomes: string[] = [];
  beforeAll(async () => {
    // Recorded for the replay suite (`npm run record-histories`): runs whose tasks were cut with an update or a signal.
    h = await startHarness({ agents: { reader, 'reader-writer': readerWriter }, script, recordAs: 'late-local-result' });
    heldBundle = await bundleWithInterceptors('test/fixtures/slow-decision-task.ts');
    // The API's client notes how each `decide` it sends ends, so the test sees a busy refusal the API sent again.
    const noting: WorkflowClientInterceptor = {
      async startUpdate(input, next) {
        const output = await next(input);
        if (input.updateName === decideUpdate.name)
          decideOutcomes.push(output.outcome?.failure?.applicationFailureInfo?.type ?? (output.outcome?.success ? 'applied' : 'none'));
        return output;
      },
    };
    const client = new Client({
      connection: h.temporal.client.connection,
      namespace: h.temporal.namespace,
      interceptors: { workflow: [noting] },
    });
    api = await startTestApi(h, { tokens: { [TOKEN]: { approver: 'alice', groups: [] } }, hitl: new HitlClient(client, h.taskQueue) });
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  /**
   * Lets the read run (its breakpoint approved by signal) while no worker polls, with a query that rides on the same task; the worker
   * comes back with the held bundle, and `probe` sends its message while that task is held. Returns the history of
   * the closed run and whether the probe landed in the late result's activation.
   */
  async function cutWith(probe: Probe, start = { agent: 'reader', prompt: 'read once' }) {
    const handle = await h.start(start);
    // The breakpoint comes first; a gated call of the same step is announced once the breakpoint is passed.
    const [breakpoint] = await waitForPending(handle, 1);
    let query!: Promise<unknown>;
    await h.restartWorker({
      bundlePath: heldBundle,
      whileStopped: async () => {
        await signalDecision(handle, { decisions: [{ id: breakpoint!.id, type: 'approve' }] });
        query = handle.query(pendingApprovalsQuery);
      },
    });
    // Sent while the approval's task is held: after it started, well before its 700 ms are up.
    await waitFor(() => approvalTaskStarted(handle), 30_000, "the approval's task to start", 20);
    await sleep(100);
    const { landed } = await probe(handle);
    await query;
    const result = await handle.result();
    const history = await handle.fetchHistory();
    return { result, history, landed: await landed(), handle };
  }

  async function tryUntilLanded(probe: Probe, start?: { agent: string; prompt: string }) {
    for (let attempt = 1; ; attempt++) {
      const run = await cutWith(probe, start);
      // Every run replays, whether or not the probe landed where it was aimed.
      await expect(replayOnSuiteBundle(run.history, run.handle.workflowId, 'late-local-result')).resolves.toBeUndefined();
      expect((await run.handle.query(runStateQuery)).status).toBe('Completed');
      if (run.landed || attempt === 3) return run;
    }
  }

  it('refuses a stream poll as busy while it applies the late result, and the run replays', { timeout: 240_000 }, async () => {
    let refusal: unknown;
    const run = await tryUntilLanded(async (handle) => {
      refusal = undefined;
      await handle.executeUpdate(streamPollUpdate, { args: [{ topics: [], from_offset: 0 }] }).catch((err) => (refusal = err));
      return { landed: async () => refusal !== undefined };
    });
    expect(run.landed).toBe(true);
    expect(refusal).toBeInstanceOf(WorkflowUpdateFailedError);
    const cause = (refusal as WorkflowUpdateFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).type).toBe(RUN_BUSY_TYPE);
    expect((cause as ApplicationFailure).details).toEqual([{ code: 'busy' }]);
    expect(run.result).toMatchObject({ status: 'Completed', output: 'read once, done' });
  });

  it('gives a watcher that starts then every item, and the run replays', { timeout: 240_000 }, async () => {
    let items: RunStreamItem[] = [];
    let watching: Promise<void> = Promise.resolve();
    const run = await tryUntilLanded(async (handle) => {
      items = [];
      watching = (async () => {
        for await (const item of new HitlClient(h.temporal.client, h.taskQueue).subscribe(handle.workflowId, { closedCheckMs: 500 }))
          items.push(item);
      })();
      // Whether a poll landed in the late result's activation shows only as a refusal the watcher retried: not asserted.
      return { landed: async () => true };
    });
    await watching;
    expect(run.result).toMatchObject({ status: 'Completed' });
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    const events = items.flatMap((i) => (i.topic === 'events' ? [i.event.type] : []));
    expect(events.at(-1)).toBe('run_finished');
  });

  it('replays a signal that came with the late result, and its stream reads the same live and replayed', { timeout: 240_000 }, async () => {
    let live: string[] = [];
    const run = await tryUntilLanded(async (handle) => {
      // A decision for no call: refused, and published as such on the run's stream.
      await signalDecision(handle, { decisions: [{ id: 'no-such-call', type: 'approve' }] });
      return {
        landed: async () => {
          live = await eventTypes(h.temporal.client, handle.workflowId);
          return landedWithLateResult(await handle.fetchHistory());
        },
      };
    });
    expect(run.landed).toBe(true);
    expect(live).toContain('decision_refused');
    // What a watcher was sent live is what a reader of the closed run gets from its replay, offset for offset.
    await h.restartWorker();
    expect(await eventTypes(h.temporal.client, run.handle.workflowId)).toEqual(live);
    expect(run.result).toMatchObject({ status: 'Completed', output: 'read once, done' });
  });

  it(
    'applies an approval sent over HTTP at that moment: the API sends a busy refusal again, and the run replays',
    { timeout: 240_000 },
    async () => {
      let response: { status: number; body: unknown } | undefined;
      const run = await tryUntilLanded(
        async (handle) => {
          const id = encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-2' });
          decideOutcomes.length = 0;
          const approved = await fetch(`${api.url}/api/approvals/${id}/approve`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ comment: 'while the read came back' }),
          });
          response = { status: approved.status, body: await approved.json() };
          // Anything but 200 leaves the write waiting for a decision that will not come: fail now, not at the timeout.
          if (response.status !== 200) throw new Error(`the approval got ${JSON.stringify(response)}`);
          // Landed: the API's first `decide` came in the late result's activation, and was refused as busy.
          return { landed: async () => decideOutcomes[0] === RUN_BUSY_TYPE };
        },
        { agent: 'reader-writer', prompt: 'read and write' },
      );
      // Refused as busy in the late result's activation, then applied when the API's client sent it again.
      expect(run.landed).toBe(true);
      expect(decideOutcomes.at(-1)).toBe('applied');
      expect(decideOutcomes.slice(0, -1).every((outcome) => outcome === RUN_BUSY_TYPE)).toBe(true);
      expect(response).toEqual({
        status: 200,
        body: { applied: [expect.objectContaining({ id: 'call-2', type: 'approve', toolName: 'write_file', approver: 'alice' })] },
      });
      expect(run.result).toMatchObject({ status: 'Completed', output: 'read and wrote' });
      const tools = (run.history.events ?? []).flatMap((e) =>
        e.activityTaskScheduledEventAttributes?.activityType?.name === 'executeTool' ? [e] : [],
      );
      expect(tools).toHaveLength(1);
    },
  );
});

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

/** Whether a workflow task started after the approval's signal. */
async function approvalTaskStarted(handle: WorkflowHandle): Promise<boolean> {
  const events = (await handle.fetchHistory()).events ?? [];
  const approval = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes?.signalName === decisionSignal.name);
  return approval >= 0 && events.slice(approval).some((e) => e.workflowTaskStartedEventAttributes);
}

/** The types of the run's events on its stream, read by query (a closed run answers from a replay). */
async function eventTypes(client: Client, workflowId: string): Promise<string[]> {
  const read = await readItems(client, workflowId, 0);
  return [...itemConverter(client)(read.items)].flatMap((i) => (i.topic === 'events' ? [i.event.type] : []));
}

/**
 * Whether the second decision signal came between the read's marker and the start of the next workflow task: the
 * live run got it in the same activation as the read's result.
 */
function landedWithLateResult(history: History): boolean {
  const events = history.events ?? [];
  const id = (e: (typeof events)[number]) => Number(e.eventId);
  const decisions = events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === decisionSignal.name);
  const second = decisions[1];
  if (!second) return false;
  const marker = events.find((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity' && id(e) > id(decisions[0]!));
  const nextTask = events.find((e) => e.workflowTaskStartedEventAttributes && marker && id(e) > id(marker));
  return Boolean(marker && nextTask && id(marker) < id(second) && id(second) < id(nextTask));
}
