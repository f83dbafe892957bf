/**
 * Runs whose every part is at its own bound: a prompt of control characters, a full context, a run policy, a queue of
 * messages, waiting calls of the largest arguments, a transcript at its budget, and an agent of long instructions.
 * Together they pass Temporal's 2 MiB payload limit when the run continues as new while its calls wait, and the
 * server then ends the run with its waiting calls. Since patch carryFits the run sheds what the next run can go on
 * without, and stays in its run when what is left still does not fit (src/workflows/carry-fit.ts): before it lets its
 * watchers go or writes a summary when its state does not fit as measured, and after, taking its watchers back, when
 * what came in meanwhile made it too large (src/workflows/continue-as-new.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import type { Listening } from '../src/api/listen.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { LIMITS } from '../src/contract/limits.js';
import { pendingApprovalQuery, runStateQuery, streamOffsetQuery, streamPollUpdate } from '../src/contract/messages.js';
import type { RunState } from '../src/schemas/run-state.js';
import { startTestApi } from './helpers/api.js';
import { launchBrowser, screenshot } from './helpers/browser.js';
import { decide, refusalOf, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries, startOf, waitFor } from './helpers/history.js';

const KiB = 1024;
const CUT = 'more bytes cut: over the size limit';
const read = { name: 'read_data', arguments: { table: 'refunds' } };
const write = (n: number) => ({ name: 'write_file', arguments: { path: `reports/big-${n}.txt`, content: 'y'.repeat(63 * KiB) } });
/** Instructions at their bound, LIMITS.instructionsBytes (one byte a character). */
const details = 'Mind the details. '.repeat(LIMITS.instructionsBytes / 18);
const wordy = defineAgent({
  ...demoAgent,
  name: 'wordy',
  instructions: `${demoAgent.instructions} ${details}`.slice(0, LIMITS.instructionsBytes),
});
/** Six bytes each as the payload holds them. */
const controls = (n: number) => '\u0001'.repeat(n);
/** A message of `n` characters, as large as can be, that still says something (patch set 32 refuses a blank one). */
const said = (n: number) => `${controls(n - 1)}.`;
const approvers = Array.from({ length: 3000 }, (_, i) => `group:team-${String(i).padStart(6, '0')}`);
/** Model steps before the one that asks for the calls; each continues as new, and the transcript reaches its budget. */
const READS = 5;
/** The session's messages, queued while the model writes the calls: together near the queue's bound. */
const QUEUED = [30_000, 30_000, 26_000];

const conversation = (match: string, writes: number) => ({
  match,
  replies: [
    { content: 'r'.repeat(63 * KiB), toolCalls: [read], repeat: READS },
    // Slow, so that the session's queue fills before the calls wait.
    { toolCalls: Array.from({ length: writes }, (_, i) => write(i + 1)), delayMs: 4000 },
    { content: 'written' },
    { content: 'read your messages' },
  ],
});

/**
 * Runs of two turns whose three calls wait, and which compact their first turn into a summary as they continue as new.
 * LATE's state fits when measured, and its queue fills while the summary is written (slowly): what it must carry then
 * does not fit. EARLY's queue fills while the model writes the calls (slowly): its state does not fit when measured.
 */
const LATE = 'the queue overfills the carry late';
const EARLY = 'the queue overfills the carry early';
const SUMMARY = 'The user asked for reports.';
const twoTurns = (match: string, slowWrites: boolean) => ({
  match,
  replies: [
    { content: 'first turn done' },
    { toolCalls: Array.from({ length: 3 }, (_, i) => write(i + 1)), ...(slowWrites && { delayMs: 4000 }) },
    { content: 'written' },
  ],
});
const compactingConversations = [
  // Listed first, since a summary's request quotes the run's prompt. Only LATE's first summary is slow.
  { match: `/^Conversation to summarize:\nuser: ${LATE}.*\nassistant: first turn done$/s`, replies: [{ content: SUMMARY, delayMs: 8000 }] },
  { match: 'Conversation to summarize', replies: [{ content: SUMMARY }] },
  // Once compacted, a run's first user message is the summary.
  { match: SUMMARY, replies: [{ content: 'written', repeat: 20 }] },
  twoTurns(LATE, false),
  twoTurns(EARLY, true),
];

const TOKEN = 'alice-carry-token-0123456789';

let h: Harness;
let hitl: HitlClient;
let api: Listening;
beforeAll(async () => {
  h = await startHarness({
    agents: { wordy },
    script: {
      conversations: [
        ...compactingConversations,
        conversation('one call fills the carry', 1),
        conversation('three calls overfill the carry', 3),
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
  api = await startTestApi(h, { hitl, tokens: { [TOKEN]: { approver: 'alice', groups: ['finance'] } } });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

/** The inbox's notice on one of the run's waiting calls: what an approver reads of a run that could not continue as new. */
async function inboxNotice(workflowId: string, callId: string): Promise<string | null> {
  const browser = await launchBrowser();
  try {
    const { page } = browser;
    await page.goto(`${api.url}/?agent=wordy`);
    await page.getByLabel('API token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator(`.approval-item[data-approval-id="${encodeApprovalId({ workflowId, callId })}"]`).click();
    const notice = page.locator('.context .carry-unfit');
    await expect.poll(() => notice.count(), { timeout: 30_000 }).toBe(1);
    expect(await notice.getAttribute('role')).toBe('status');
    await screenshot(page, 'inbox-carry-unfit.png');
    // The call's text for approvers, cut to 4 KiB, heads the page by its beginning; the whole of it folds out.
    const description = (await hitl.getRun(workflowId)).pending.find((p) => p.id === callId)!.description;
    expect(description.length).toBeGreaterThan(1000);
    // The prompt the run began with, though it has continued as new since.
    expect(await page.locator('.prompt blockquote').textContent()).toMatch(/^three calls overfill the carry /);
    expect(await page.locator('#detail-title').textContent()).toBe(`${description.slice(0, 240)}…`);
    const whole = page.locator('.whole-description');
    await whole.locator('summary').click();
    expect(await whole.locator('.text').textContent()).toBe(description);
    expect(browser.pageErrors).toEqual([]);
    return await notice.textContent();
  } finally {
    await browser.close();
  }
}

/** Starts a run at every bound that continues as new at every step and while it waits, and fills its queue. */
async function startAtBounds(prompt: string, writes: number) {
  const handle = await startLarge(prompt);
  await waitFor(async () => (await handle.query(runStateQuery)).step === READS + 1, 60_000, 'the model call that asks for the calls');
  for (const chars of QUEUED) await hitl.say(handle.workflowId, said(chars));
  await waitForPending(handle, writes, 60_000);
  return handle;
}

function startLarge(prompt: string, compaction?: { keepLastTurns: number; summarize: boolean }) {
  return h.start({
    agent: 'wordy',
    prompt: `${prompt} ${controls(LIMITS.promptChars - 40)}`,
    context: { notes: 'c'.repeat(LIMITS.contextBytes - 20) },
    approval: { tools: { send_email: { approvers } } },
    session: {},
    continueAsNew: { maxBytes: 100_000, ...(compaction && { compaction }) },
  });
}

/** Starts a run that compacts its first turn as it continues as new, and begins its second turn once it has answered. */
async function startTwoTurns(prompt: string) {
  const handle = await startLarge(prompt, { keepLastTurns: 1, summarize: true });
  await waitFor(async () => (await handle.query(runStateQuery)).status === 'AwaitingMessage', 60_000, 'the first turn');
  await hitl.say(handle.workflowId, 'write the reports');
  return handle;
}

/** Each run of the chain, in order: the bytes of the input it started with, and its activities' summaries. */
async function chain(workflowId: string, state: RunState): Promise<{ inputs: number[]; activities: string[] }> {
  const runIds = [...state.previousRunIds, (await h.temporal.client.workflow.getHandle(workflowId).describe()).runId];
  const inputs = [];
  const activities = [];
  for (const runId of runIds) {
    const run = h.temporal.client.workflow.getHandle(workflowId, runId);
    const { events } = await run.fetchHistory();
    const payloads = events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
    inputs.push(payloads.reduce((n, p) => n + (p.data?.length ?? 0), 0));
    activities.push(...(await activitySummaries(run)));
  }
  console.log(`inputs of the chain's runs: ${inputs.join(', ')} bytes (limit ${LIMITS.carriedInputBytes})`);
  return { inputs, activities };
}

/** Approves the calls and waits for the queued messages' turn; checks that the tools ran and every input fitted. */
async function approveAll(handle: Awaited<ReturnType<typeof startLarge>>, ids: string[]): Promise<RunState> {
  await decide(handle, { decisions: ids.map((id) => ({ id, type: 'approve' as const })) });
  await waitFor(
    async () => {
      const state = await handle.query(runStateQuery);
      return state.queuedMessages === 0 && state.status === 'AwaitingMessage';
    },
    60_000,
    'the turn of the queued messages',
  );
  const state = await handle.query(runStateQuery);
  const { inputs, activities } = await chain(handle.workflowId, state);
  expect(Math.max(...inputs)).toBeLessThanOrEqual(LIMITS.carriedInputBytes);
  expect(activities.filter((a) => a === 'tool write_file')).toHaveLength(ids.length);
  return state;
}

/** Approves the calls, then checks that the tools ran, the queued messages had their turn, and the session ends. */
async function approveAndFinish(handle: Awaited<ReturnType<typeof startAtBounds>>, prompt: string, writes: number): Promise<RunState> {
  const state = await approveAll(
    handle,
    Array.from({ length: writes }, (_, i) => `call-${i + READS + 1}`),
  );
  // The model read them all in one turn: the newest whole, the older ones as the transcript keeps any text.
  const last = h.model.requests.filter((r) => JSON.stringify(r.body).includes(prompt)).at(-1)!.body as Pick<RunState, 'messages'>;
  const taken = last.messages.filter((m) => m.role === 'user').slice(-QUEUED.length);
  expect(taken.map((m) => m.content?.startsWith(controls(300)))).toEqual([true, true, true]);
  expect(taken.at(-1)?.content).toBe(said(QUEUED.at(-1)!));
  await hitl.endSession(handle.workflowId);
  expect(await handle.result()).toMatchObject({ status: 'Ended', output: 'read your messages' });
  return state;
}

describe('a run with every part at its bound', () => {
  it('sheds older replies to continue as new while its calls wait, and loses nothing', { timeout: 180_000 }, async () => {
    const handle = await startAtBounds('one call fills the carry', 1);
    // It continued as new while the calls waited: the calls, the queue and the prompt went across.
    await waitFor(async () => (await handle.query(runStateQuery)).previousRunIds.length === READS + 1, 30_000, 'the run that waits');
    const waiting = await handle.query(runStateQuery);
    expect(waiting.pending.map((p) => p.id)).toEqual([`call-${READS + 1}`]);
    // The text approvers read quotes the arguments up to its bound; the call holds them whole.
    expect(Buffer.byteLength(waiting.pending[0]!.description)).toBeLessThanOrEqual(LIMITS.descriptionBytes);
    expect((await handle.query(pendingApprovalQuery, `call-${READS + 1}`))?.args).toEqual(write(1).arguments);
    expect(waiting.queuedMessages).toBe(QUEUED.length);
    expect(waiting.carryUnfit).toBeUndefined();
    expect(Math.max(...(await chain(handle.workflowId, waiting)).inputs)).toBeLessThanOrEqual(LIMITS.carriedInputBytes);
    // Shed to get there: the transcript went across well below its own budget, which cuts a reply (62 KiB at most)
    // only while it is over; its older replies are cut, with a marker.
    const { input } = await startOf<{ carry: { messages: RunState['messages'] } }>(h.temporal.client.workflow.getHandle(handle.workflowId));
    expect(Buffer.byteLength(JSON.stringify(input.carry.messages))).toBeLessThan(LIMITS.transcriptBytes - 64 * KiB);
    const replies = input.carry.messages.filter((m) => m.role === 'assistant' && m.content).map((m) => m.content!);
    expect(replies).toHaveLength(READS);
    // Oldest first: the replies cut come before those kept whole.
    const cut = replies.map((r) => r.includes(CUT));
    expect(cut[0]).toBe(true);
    expect(cut).toEqual([...cut].sort().reverse());

    await approveAndFinish(handle, 'one call fills the carry', 1);
  });

  it('stays in its run while what it cannot shed does not fit, and continues as new once it does', { timeout: 180_000 }, async () => {
    const handle = await startAtBounds('three calls overfill the carry', 3);
    // Each waiting call's arguments go across three times: parsed, in its pending entry, and in the transcript (and
    // the text approvers read, twice, is cut to 4 KiB since patch set 17). The run tried as its calls began to wait,
    // and says so in its state, with the size (and so in `hitl show` and the API).
    await waitFor(async () => (await handle.query(runStateQuery)).carryUnfit !== undefined, 30_000, 'the attempt');
    const waiting = await handle.query(runStateQuery);
    expect(waiting.previousRunIds).toHaveLength(READS);
    expect(waiting.pending).toHaveLength(3);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(waiting.carryUnfit).toMatchObject({ limit: LIMITS.carriedInputBytes });
    expect(waiting.carryUnfit!.bytes).toBeGreaterThan(LIMITS.carriedInputBytes);
    const shown = await hitl.getRun(handle.workflowId);
    expect(shown.carryUnfit).toEqual(waiting.carryUnfit);
    // And in the Temporal UI, as the run's current details say it.
    const details = async () => ((await handle.query('__temporal_workflow_metadata')) as { currentDetails: string }).currentDetails;
    expect(await details()).toContain(
      `**Could not continue as new at event ${waiting.carryUnfit!.historyLength}: its state was ${waiting.carryUnfit!.bytes} bytes`,
    );
    // And in the inbox, beside the call an approver opens.
    expect(await inboxNotice(handle.workflowId, waiting.pending[0]!.id)).toContain(
      `Could not continue as new at event ${waiting.carryUnfit!.historyLength}: its state was ${waiting.carryUnfit!.bytes} bytes, ` +
        `over the limit of ${LIMITS.carriedInputBytes}`,
    );
    // It takes its watchers' polls: one that asks for what it has is answered.
    const offset = await handle.query(streamOffsetQuery);
    const poll = (from: number) => handle.executeUpdate(streamPollUpdate, { args: [{ topics: ['events'], from_offset: from }] });
    expect((await poll(offset - 1)).items).toHaveLength(1);
    // It tries again once its history has grown by 200 events, and measures first (patch carryMeasuredFirst): a
    // watcher waiting for the run's next event is not let go to poll a next run that does not come.
    let watcherLetGo = false;
    const watcher = poll(offset).then((answer) => ((watcherLetGo = true), answer));
    const firstAttempt = waiting.carryUnfit!.historyLength;
    while ((await handle.query(runStateQuery)).carryUnfit!.historyLength === firstAttempt) await poll(offset - 1);
    expect(watcherLetGo).toBe(false);

    const done = await approveAndFinish(handle, 'three calls overfill the carry', 3);
    expect((await watcher).items.length).toBeGreaterThan(0);
    // Once the calls were settled, the run went on continuing as new; the run it is now has nothing to report.
    expect(done.previousRunIds.length).toBeGreaterThan(READS);
    expect(done.carryUnfit).toBeUndefined();
    expect(await details()).not.toContain('Could not continue as new');
  });

  it(
    'stays in its run when what came in while it wrote its summary no longer fits, and takes its watchers back',
    { timeout: 180_000 },
    async () => {
      const handle = await startTwoTurns(LATE);
      // Its state fits when measured: it lets its watchers go and writes the summary of its first turn.
      await waitFor(async () => (await activitySummaries(handle)).includes('compact 2 messages'), 60_000, 'the summary');
      const before = await handle.query(runStateQuery);
      expect(before.pending).toHaveLength(3);
      const offset = await handle.query(streamOffsetQuery);
      const poll = (from: number) => handle.executeUpdate(streamPollUpdate, { args: [{ topics: ['events'], from_offset: from }] });
      expect((await refusalOf(poll(offset - 1))).message).toContain('draining');
      for (const chars of QUEUED) await hitl.say(handle.workflowId, said(chars));

      await waitFor(async () => (await handle.query(runStateQuery)).carryUnfit !== undefined, 30_000, 'the late decline');
      const waiting = await handle.query(runStateQuery);
      expect(waiting.previousRunIds).toEqual(before.previousRunIds);
      expect(waiting.carryUnfit!.bytes).toBeGreaterThan(LIMITS.carriedInputBytes);
      expect(waiting.queuedMessages).toBe(QUEUED.length);
      // The summary was written in this run: measured first, its state fitted.
      expect((await activitySummaries(handle)).filter((a) => a === 'compact 2 messages')).toHaveLength(1);
      // Still the run to follow: a poll is taken again and answered (the messages' events moved the offset on).
      expect((await poll((await handle.query(streamOffsetQuery)) - 1)).items).toHaveLength(1);

      await settleAndEnd(handle, before);
    },
  );

  it(
    'declines before it lets its watchers go or writes a summary when its state does not fit as measured',
    { timeout: 180_000 },
    async () => {
      const handle = await startTwoTurns(EARLY);
      await waitFor(async () => (await handle.query(runStateQuery)).step === 2, 30_000, 'the model call that asks for the calls');
      for (const chars of QUEUED) await hitl.say(handle.workflowId, said(chars));
      await waitFor(async () => (await handle.query(runStateQuery)).carryUnfit !== undefined, 60_000, 'the early decline');
      const before = await handle.query(runStateQuery);
      expect(before.pending).toHaveLength(3);
      expect(before.carryUnfit!.bytes).toBeGreaterThan(LIMITS.carriedInputBytes);
      // Measured first (patch carryMeasuredFirst): no summary was written for a run that could not go, and its
      // watchers were never let go.
      expect((await activitySummaries(handle)).filter((a) => a.startsWith('compact'))).toEqual([]);
      const offset = await handle.query(streamOffsetQuery);
      expect(
        (await handle.executeUpdate(streamPollUpdate, { args: [{ topics: ['events'], from_offset: offset - 1 }] })).items,
      ).toHaveLength(1);
      await settleAndEnd(handle, before);
    },
  );
});

/** Approves a compacting run's three calls, then checks that it continued as new with its queue and ends its session. */
async function settleAndEnd(handle: Awaited<ReturnType<typeof startLarge>>, before: RunState): Promise<void> {
  const done = await approveAll(handle, ['call-1', 'call-2', 'call-3']);
  expect(done.previousRunIds.length).toBeGreaterThan(before.previousRunIds.length);
  expect(done.carryUnfit).toBeUndefined();
  // The model read the newest queued message whole.
  const newest = said(QUEUED.at(-1)!);
  expect(h.model.requests.some((r) => (r.body as Pick<RunState, 'messages'>).messages.some((m) => m.content === newest))).toBe(true);
  await hitl.endSession(handle.workflowId);
  expect(await handle.result()).toMatchObject({ status: 'Ended', output: 'written' });
}
