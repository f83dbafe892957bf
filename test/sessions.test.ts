/** Multi-turn sessions: runs that stay open for the next message, by update, signal, client, CLI and HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HitlStatus } from '../src/contract/search-attributes.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { MessageQueueFullError, SessionClosedError } from '../src/errors.js';
import { LIMITS } from '../src/contract/limits.js';
import { endSignal, messageSignal, messageUpdate, runStateQuery } from '../src/contract/messages.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { timerSummaries, waitFor } from './helpers/history.js';
import type { Listening } from '../src/api/listen.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const TOKEN = 'session-token-0123456789';
const OTHER_TOKEN = 'session-other-token-0123456789';

let h: Harness;
let hitl: HitlClient;
let api: Listening;

beforeAll(async () => {
  h = await startHarness({
    recordAs: 'sessions',
    script: {
      conversations: [
        {
          match: 'chat session',
          replies: [
            { content: 'answer one' },
            { content: 'answer two' },
            { content: 'answer three' },
            { content: 'answer four' },
            { content: 'answer five' },
          ],
        },
        { match: 'idle session', replies: [{ content: 'hello' }] },
        { match: 'ended by hand', replies: [{ content: 'hi' }] },
        { match: "sam's own session", replies: [{ content: 'hello sam' }, { content: 'noted, sam' }] },
        {
          match: 'busy session',
          replies: [
            { toolCalls: [call('g1', 'cancel_order', { orderId: '1235' })] },
            { content: 'first turn done' },
            { content: 'second turn done' },
          ],
        },
        { match: 'not a session', replies: [{ content: 'bye' }] },
        {
          match: 'crowded session',
          replies: [
            { toolCalls: [call('g1', 'cancel_order', { orderId: '1235' })] },
            { content: 'first turn done' },
            { content: 'read them all' },
            { content: 'read the third' },
          ],
        },
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
  api = await startTestApi(h, {
    hitl,
    tokens: { [TOKEN]: { approver: 'sam', groups: [] }, [OTHER_TOKEN]: { approver: 'rita', groups: ['finance'] } },
  });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

/** The conversation as a person sees it: user messages and the assistant's text answers. */
const userAndAssistant = async (runId: string) =>
  (await hitl.getRun(runId)).messages
    .filter((m) => m.role === 'user' || (m.role === 'assistant' && m.content))
    .map((m) => `${m.role}: ${m.content}`);

describe('sessions', () => {
  it('answer after answer: messages by update, signal, the hitl CLI and HTTP, then end', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'a chat session', session: { idleTimeout: '1h' } });
    const runId = handle.workflowId;
    await waitFor(async () => (await hitl.getRun(runId)).status === 'AwaitingMessage');
    await waitFor(async () => (await handle.describe()).typedSearchAttributes.get(HitlStatus) === 'AwaitingMessage');
    expect(await timerSummaries(handle)).toEqual(['idle · waiting for the next message']);

    expect(await hitl.say(runId, 'second question')).toEqual({ queued: 1 });
    await waitFor(async () => (await userAndAssistant(runId)).length === 4 && (await hitl.getRun(runId)).status === 'AwaitingMessage');
    await handle.signal(messageSignal, { content: 'third question' });
    await waitFor(async () => (await userAndAssistant(runId)).length === 6 && (await hitl.getRun(runId)).status === 'AwaitingMessage');
    expect(await runHitl(h, ['say', runId, 'fourth question'])).toMatchObject({ code: 0 });
    await waitFor(async () => (await userAndAssistant(runId)).length === 8 && (await hitl.getRun(runId)).status === 'AwaitingMessage');
    // maxSteps (25) applies per turn: the Temporal UI counts the session's steps on, to where the next turn would stop.
    const details = async () => ((await handle.query('__temporal_workflow_metadata')) as { currentDetails: string }).currentDetails;
    await waitFor(async () => (await details()).startsWith('**Step 4 of 29**'));

    const over = await fetch(`${api.url}/api/runs/${runId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'one more' }),
    });
    expect(over.status).toBe(202);
    await waitFor(async () => (await userAndAssistant(runId)).length === 10);
    const ended = await fetch(`${api.url}/api/runs/${runId}/end`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ended.status).toBe(202);

    // The run keeps who ended it, as the API knew them.
    expect(await handle.result()).toMatchObject({
      status: 'Ended',
      output: 'answer five',
      steps: 5,
      ended: { by: 'request', reason: 'by sam over HTTP' },
    });
    expect(await userAndAssistant(runId)).toEqual([
      'user: a chat session',
      'assistant: answer one',
      'user: second question',
      'assistant: answer two',
      'user: third question',
      'assistant: answer three',
      'user: fourth question',
      'assistant: answer four',
      'user: one more',
      'assistant: answer five',
    ]);
    await expect(hitl.say(runId, 'too late')).rejects.toBeInstanceOf(SessionClosedError);
  });

  it("over HTTP, only the session's requester sends it messages and ends it; the run is unchanged by anyone else", async () => {
    const post = (token: string, path: string, body?: unknown) =>
      fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    const started = await post(TOKEN, '/api/runs', { agent: 'demo', prompt: "sam's own session", session: {} });
    expect(started.status).toBe(201);
    const { workflowId } = (await started.json()) as { workflowId: string };
    await waitFor(async () => (await hitl.getRun(workflowId)).status === 'AwaitingMessage');
    const handle = h.temporal.client.workflow.getHandle(workflowId);
    const before = (await handle.describe()).historyLength;

    for (const [path, body] of [
      [`/api/runs/${workflowId}/messages`, { content: 'approve every refund I ask for' }],
      [`/api/runs/${workflowId}/end`, undefined],
    ] as const) {
      const refused = await post(OTHER_TOKEN, path, body);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        error: {
          code: 'not_requester',
          message: `Run ${workflowId} was asked for by sam: only they may send it messages, end it or cancel it.`,
        },
      });
    }
    expect((await handle.describe()).historyLength).toBe(before);
    expect((await hitl.getRun(workflowId)).status).toBe('AwaitingMessage');

    expect((await post(TOKEN, `/api/runs/${workflowId}/messages`, { content: 'a note from sam' })).status).toBe(202);
    await waitFor(
      async () => (await userAndAssistant(workflowId)).length === 4 && (await hitl.getRun(workflowId)).status === 'AwaitingMessage',
    );
    // A body the route does not take is refused, and the run is unchanged; so is a decision when nothing waits (a
    // conflict with the run's state, as when another approver decided first: 409).
    const beforeEnd = (await handle.describe()).historyLength;
    const undecidable = await post(TOKEN, `/api/runs/${workflowId}/decisions`, { decisions: [{ type: 'approve' }] });
    expect([undecidable.status, await undecidable.json()]).toEqual([
      409,
      { error: { code: 'nothing_pending', message: 'Nothing is waiting for a decision in this run.' } },
    ]);
    for (const body of [{ force: true }, { reason: '' }, { reason: 'x'.repeat(1501) }]) {
      const refused = await post(TOKEN, `/api/runs/${workflowId}/end`, body);
      expect(refused.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect((await handle.describe()).historyLength).toBe(beforeEnd);
    expect((await post(TOKEN, `/api/runs/${workflowId}/end`, { reason: 'done for today' })).status).toBe(202);
    expect(await handle.result()).toMatchObject({
      status: 'Ended',
      output: 'noted, sam',
      ended: { by: 'request', reason: 'by sam over HTTP: done for today' },
    });
    const shown = await runHitl(h, ['show', workflowId]);
    expect(shown.stdout).toContain('Result (Ended (end requested: by sam over HTTP: done for today)): noted, sam');
    expect(await userAndAssistant(workflowId)).toEqual([
      "user: sam's own session",
      'assistant: hello sam',
      'user: a note from sam',
      'assistant: noted, sam',
    ]);
  });

  it('ends after the idle timeout', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'an idle session', session: { idleTimeout: '2s' } });
    expect(await handle.result()).toMatchObject({
      status: 'Ended',
      output: 'hello',
      steps: 1,
      ended: { by: 'idle', reason: 'no message came for 2s' },
    });
    expect((await runHitl(h, ['show', handle.workflowId])).stdout).toContain('Result (Ended (no message came for 2s)): hello');
  });

  it('hitl end --reason: the run keeps the reason, and a second end is refused without touching it', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'a session ended by hand', session: {} });
    await waitFor(async () => (await hitl.getRun(handle.workflowId)).status === 'AwaitingMessage');
    expect(await runHitl(h, ['end', handle.workflowId, '--reason', 'wrapping up'])).toMatchObject({ code: 0 });
    const result = await handle.result();
    expect(result.ended).toEqual({ by: 'request', reason: 'wrapping up' });
    await expect(hitl.endSession(handle.workflowId, 'another reason')).rejects.toBeInstanceOf(SessionClosedError);
    expect((await hitl.getRun(handle.workflowId)).result?.ended).toEqual({ by: 'request', reason: 'wrapping up' });
  });

  it('queues a message sent while a turn waits for approval, and answers it next', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'a busy session', session: {} });
    await waitForPending(handle, 1);
    await hitl.say(handle.workflowId, 'and while you are at it');
    expect((await handle.query(runStateQuery)).queuedMessages).toBe(1);
    // A message that is not one is refused, typed and final; nothing is queued.
    await expect(handle.executeUpdate(messageUpdate, { args: [{ content: 5 } as never] })).rejects.toMatchObject({
      cause: { type: 'InvalidMessageError', nonRetryable: true },
    });
    // Nor is one that says nothing (patch set 32), by update or by signal.
    await expect(hitl.say(handle.workflowId, ' \u3000\n\u200b')).rejects.toMatchObject({
      name: 'InvalidMessageError',
      message: expect.stringContaining('says nothing'),
    });
    await handle.signal(messageSignal, { content: '   ' });
    // From the CLI, as a usage error (exit 2) that says what was refused, for a message and for an end's reason.
    for (const args of [
      ['say', handle.workflowId, ''],
      ['end', handle.workflowId, '--reason', 'x'.repeat(30_000)],
    ]) {
      const refused = await runHitl(h, args);
      expect([refused.code, refused.stderr], args[0]).toEqual([
        2,
        expect.stringMatching(/Not (a message|an end request) a session takes:/),
      ]);
    }
    expect((await handle.query(runStateQuery)).queuedMessages).toBe(1);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'reject' }] });
    await waitFor(async () => (await userAndAssistant(handle.workflowId)).length === 4);
    await handle.signal(endSignal, {});
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'Ended', output: 'second turn done' });
    expect(result.ended).toEqual({ by: 'request' });
    expect(await userAndAssistant(handle.workflowId)).toEqual([
      'user: a busy session',
      'assistant: first turn done',
      'user: and while you are at it',
      'assistant: second turn done',
    ]);
  });

  it('refuses a message past what the queue holds, typed on every channel, and takes it once a turn took the rest', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'a crowded session', session: {} });
    await waitForPending(handle, 1);
    // One that no queue holds, even empty (a prompt's worth, six bytes a character as the run holds it): refused as
    // final, not as one to send again later.
    const never = '\u0001'.repeat(LIMITS.promptChars);
    await expect(hitl.say(handle.workflowId, never)).rejects.toMatchObject({
      name: 'InvalidMessageError',
      message: expect.stringContaining('600000 bytes'),
    });
    // Two bytes a character, in UTF-8 and in JSON: two of the longest messages and a shorter one fill the queue.
    const long = (n: number | string, chars = LIMITS.promptChars - 2) => `${n} ${'é'.repeat(chars)}`;
    await hitl.say(handle.workflowId, long(1));
    await hitl.say(handle.workflowId, long(2));
    await hitl.say(handle.workflowId, long('f', 60_000));
    await expect(hitl.say(handle.workflowId, long(3))).rejects.toBeInstanceOf(MessageQueueFullError);
    await expect(handle.executeUpdate(messageUpdate, { args: [{ content: long(3) }] })).rejects.toMatchObject({
      cause: { type: 'MessageQueueFullError', nonRetryable: true, message: expect.stringContaining('Nothing was queued') },
    });
    const refused = await fetch(`${api.url}/api/runs/${handle.workflowId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: long(3, 5_000) }),
    });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('queue_full');
    // A signal cannot be answered: it is dropped, and the run says so in its log, as for any refused message.
    await handle.signal(messageSignal, { content: long(3) });
    expect((await handle.query(runStateQuery)).queuedMessages).toBe(3);

    await decide(handle, { decisions: [{ id: 'call-1', type: 'reject' }] });
    await waitFor(async () => (await handle.query(runStateQuery)).status === 'AwaitingMessage', 30_000, 'the second turn');
    await hitl.say(handle.workflowId, long(3));
    await waitFor(async () => (await handle.query(runStateQuery)).queuedMessages === 0, 30_000, 'the third turn');
    await hitl.endSession(handle.workflowId);
    await handle.result();
    const users = (await hitl.getRun(handle.workflowId)).messages.filter((m) => m.role === 'user').map((m) => m.content?.slice(0, 2));
    expect(users).toEqual(['a ', '1 ', '2 ', 'f ', '3 ']);
  });

  it('answers a message queued before end, then ends', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'a busy session that ends', session: {} });
    await waitForPending(handle, 1);
    await hitl.say(handle.workflowId, 'one last thing');
    await hitl.endSession(handle.workflowId);
    await expect(hitl.say(handle.workflowId, 'too late')).rejects.toThrow('The session has ended.');
    await decide(handle, { decisions: [{ id: 'call-1', type: 'reject' }] });
    expect(await handle.result()).toMatchObject({ status: 'Ended', output: 'second turn done' });
    expect(await userAndAssistant(handle.workflowId)).toEqual([
      'user: a busy session that ends',
      'assistant: first turn done',
      'user: one last thing',
      'assistant: second turn done',
    ]);
  });

  it('refuses messages to a run that is not a session, with the reason', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'not a session' });
    await handle.result();
    await expect(hitl.say(handle.workflowId, 'hello?')).rejects.toThrow(/is not an open session: the run has finished/);
    const running = await h.start({ agent: 'demo', prompt: 'a busy session, not a session' });
    await waitForPending(running, 1);
    await expect(hitl.say(running.workflowId, 'hello?')).rejects.toThrow(
      'is not an open session: This run is not a session; start it with `session: {}` to send it more messages.',
    );
    // An end as well, which is no message.
    await expect(hitl.endSession(running.workflowId, 'done')).rejects.toThrow(`Run ${running.workflowId} is not an open session: This run`);
    // Straight through Temporal, typed and final, as every refusal: a sender in any language can tell why.
    await expect(running.executeUpdate(messageUpdate, { args: [{ content: 'hello?' }] })).rejects.toMatchObject({
      cause: { type: 'SessionClosedError', nonRetryable: true, message: expect.stringContaining('not a session') },
    });
    await running.cancel();
  });
});
