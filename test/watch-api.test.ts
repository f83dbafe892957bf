/**
 * `GET /api/runs/:id/events` against the real API, worker and dev server: the model's text arrives while its step
 * runs; a client that drops and resumes with Last-Event-ID misses nothing and sees nothing twice; many clients of
 * one run share one subscription (one set of polls in the run's history); and the route refuses what it must.
 */
import { Client, ServiceError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from '../src/api/listen.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { STORE_WORKFLOW_TYPE, storeWorkflowId } from '../src/contract/store.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { WORKFLOW_TYPE } from '../src/contract/task-queue.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { itemsOf, readSse, type SseEvent } from './helpers/sse.js';
import { modelCallRunning, streamHistory } from './helpers/stream.js';
import { uniqueName } from './helpers/temporal.js';

const TOKEN = 'watcher-token-0123456789';
const ANSWER =
  'Server-Sent Events carry the run to any HTTP client: each event has the stream offset as its id, so a client ' +
  'that loses its connection says where it was and gets the rest, exactly once.';
const gated = { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'notes.txt', content: 'x' } }] };

let h: Harness;
let api: Listening;
beforeAll(async () => {
  h = await startHarness({
    streaming: { batchIntervalMs: 100 },
    script: {
      conversations: [
        { match: 'sse live', replies: [{ content: ANSWER, chunkSize: 6, chunkDelayMs: 60 }] },
        { match: 'sse gated', replies: [gated, { content: ANSWER, chunkSize: 6, chunkDelayMs: 60 }] },
      ],
    },
  });
  api = await startTestApi(h, {
    hitl: new HitlClient(h.temporal.client, h.taskQueue),
    tokens: { [TOKEN]: { approver: 'wes', groups: [] } },
  });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

/** An API call as the watcher, with a JSON body for a POST: its status and its body. */
function postBody(path: string): object {
  if (path.endsWith('/messages')) return { content: 'hello?' };
  return path.endsWith('/decisions') ? { decisions: [{ id: 'call-1', type: 'approve' }] } : {};
}

async function call(method: 'GET' | 'POST', path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(method === 'POST' && { 'content-type': 'application/json' }) },
    ...(method === 'POST' && { body: JSON.stringify(postBody(path)) }),
  });
  return { status: response.status, body: await response.json() };
}

const url = (workflowId: string, query = '') => `${api.url}/api/runs/${encodeURIComponent(workflowId)}/events${query}`;
const ended = (e: SseEvent) => e.event === 'end';
const textOf = (items: ReturnType<typeof itemsOf>) =>
  items
    .filter((i) => i.topic === 'tokens')
    .map((i) => i.data.text)
    .join('');

async function pausedRun(prompt: string) {
  const handle = await h.start({ agent: 'demo', prompt });
  await waitForPending(handle, 1);
  return handle;
}

describe('GET /api/runs/:id/events', () => {
  it("sends the model's text while the step is still running, then the events to the run's end", async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'sse live please' });
    let runningAtFirstToken: Promise<boolean> | undefined;
    const read = await readSse(url(handle.workflowId), {
      token: TOKEN,
      until: (e) => {
        if (e.event === 'tokens' && !runningAtFirstToken) runningAtFirstToken = modelCallRunning(handle);
        return ended(e);
      },
    });
    expect(read.status).toBe(200);
    expect(await runningAtFirstToken).toBe(true);
    expect(read.events[0]).toMatchObject({ event: 'open' });
    expect(read.events.at(-1)).toEqual({ event: 'end', data: '{}' });
    const items = itemsOf(read.events);
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    expect(textOf(items)).toBe(ANSWER);
    expect(items.filter((i) => i.topic === 'events').map((i) => i.data.type)).toEqual([
      'status_changed',
      'step_started',
      'model_replied',
      'run_finished',
    ]);
  });

  it('resumes after Last-Event-ID: nothing missed, nothing twice', async () => {
    const handle = await pausedRun('sse gated, resumed');
    // Connected while the run waits; dropped in the middle of the streamed answer.
    const first = await readSse(url(handle.workflowId), {
      token: TOKEN,
      until: async (e, all) => {
        if (e.event === 'events' && JSON.parse(e.data).type === 'approval_requested') {
          await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'wes' });
        }
        return all.filter((x) => x.event === 'tokens').length === 3;
      },
    });
    const lastId = first.events.at(-1)!.id!;
    const rest = await readSse(url(handle.workflowId), { token: TOKEN, lastEventId: lastId, until: ended });
    expect(rest.events[0]).toMatchObject({
      event: 'open',
      data: JSON.stringify({ workflowId: handle.workflowId, from: Number(lastId) + 1 }),
    });

    const whole = await readSse(url(handle.workflowId), { token: TOKEN, until: ended });
    const joined = [...itemsOf(first.events), ...itemsOf(rest.events)];
    expect(joined).toEqual(itemsOf(whole.events));
    expect(new Set(joined.map((i) => i.offset)).size).toBe(joined.length);
    expect(textOf(joined)).toBe(ANSWER);
    // A start offset instead of Last-Event-ID.
    const tail = await readSse(url(handle.workflowId, `?from=${lastId}`), { token: TOKEN, until: ended });
    expect(itemsOf(tail.events)[0]?.offset).toBe(Number(lastId));
  });

  it('reads again, from where it was, when Temporal fails a read of the run without saying why', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'sse live, read through failures' });
    await handle.result();
    // As a query that reaches the worker just as it lets the closed run go fails: "Failed to query Workflow".
    let failures = 2;
    const failing = new Client({
      connection: h.temporal.client.connection,
      namespace: h.temporal.namespace,
      interceptors: {
        workflow: [
          {
            async query(input, next) {
              if (input.queryType === 'runStreamItems' && failures-- > 0) throw new ServiceError('Failed to query Workflow');
              return next(input);
            },
          },
        ],
      },
    });
    const flaky = await startTestApi(h, {
      hitl: new HitlClient(failing, h.taskQueue),
      tokens: { [TOKEN]: { approver: 'wes', groups: [] } },
    });
    try {
      const read = await readSse(`${flaky.url}/api/runs/${encodeURIComponent(handle.workflowId)}/events`, { token: TOKEN, until: ended });
      expect(failures).toBeLessThan(0);
      expect(read.events.map((e) => e.event)).not.toContain('error');
      const whole = await readSse(url(handle.workflowId), { token: TOKEN, until: ended });
      expect(itemsOf(read.events)).toEqual(itemsOf(whole.events));
      expect(textOf(itemsOf(read.events))).toBe(ANSWER);
    } finally {
      await flaky.close();
    }
  });

  it('serves many clients of one run from one subscription', async () => {
    const handle = await pausedRun('sse gated, watched by three');
    const before = (await streamHistory(handle)).polls.length;
    const readers = [0, 1, 2].map(() => readSse(url(handle.workflowId), { token: TOKEN, until: ended }));
    // All three connected (each got the pending approval) before the run goes on.
    await expect.poll(async () => (await streamHistory(handle)).polls.length, { timeout: 20_000 }).toBeGreaterThan(before);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'wes' });
    const reads = await Promise.all(readers);
    const items = reads.map((r) => itemsOf(r.events));
    expect(items[1]).toEqual(items[0]);
    expect(items[2]).toEqual(items[0]);
    expect(textOf(items[0]!)).toBe(ANSWER);
    // One subscriber's polls: at most one accepted poll per item it brought (and a couple to spare), not three.
    const polls = (await streamHistory(handle)).polls.length - before;
    const waitingAt = items[0]!.find((i) => i.data.type === 'approval_requested')!.offset;
    expect(polls).toBeLessThanOrEqual(items[0]!.filter((i) => i.offset > waitingAt).length + 2);
  });

  it('refuses without a token, for an unknown run, and for an offset the stream has not reached', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'sse live, refused' });
    const anonymous = await fetch(url(handle.workflowId));
    expect(anonymous.status).toBe(401);
    expect(await readSse(url('no-such-run'), { token: TOKEN })).toMatchObject({ status: 404, body: { error: { code: 'run_not_found' } } });
    expect(await readSse(url(handle.workflowId), { token: TOKEN, lastEventId: 'soon' })).toMatchObject({ status: 400 });
    expect(await readSse(url(handle.workflowId, '?from=-1'), { token: TOKEN })).toMatchObject({ status: 400 });
    expect(await readSse(url(handle.workflowId, '?from=1&from=abc'), { token: TOKEN })).toMatchObject({ status: 400 });
    expect(await readSse(url(handle.workflowId), { token: TOKEN, lastEventId: '99999' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_offset' } },
    });
    await handle.result();
  });

  it('answers HEAD with the headers and no stream: HEADs hold no stream slot', async () => {
    const handle = await pausedRun('sse gated, asked by HEAD');
    for (let i = 0; i < 20; i++) {
      const head = await fetch(url(handle.workflowId), { method: 'HEAD', headers: { authorization: `Bearer ${TOKEN}` } });
      expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    }
    // More HEADs than an approver may hold streams (16), and a GET still gets its stream.
    const read = readSse(url(handle.workflowId), { token: TOKEN, until: ended });
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'wes' });
    expect((await read).status).toBe(200);
    expect(textOf(itemsOf((await read).events))).toBe(ANSWER);
  });

  it('resumes a run Temporal ended after any id it gave out, the end the client adds included: nothing again, then end', async () => {
    const handle = await pausedRun('sse gated, then terminated');
    await handle.terminate('ended by the test');
    const whole = await readSse(url(handle.workflowId), { token: TOKEN, until: ended });
    const items = itemsOf(whole.events);
    const last = items.at(-1)!;
    expect(last).toMatchObject({ topic: 'events', data: { type: 'run_failed', status: 'Terminated' } });
    // After the run's own last item (the client adds the end next), and after the added end itself.
    for (const lastEventId of [last.offset - 1, last.offset]) {
      const rest = await readSse(url(handle.workflowId), { token: TOKEN, lastEventId: String(lastEventId), until: ended });
      expect([rest.status, rest.body], `after ${lastEventId}`).toEqual([200, undefined]);
      expect(itemsOf(rest.events)).toEqual(items.filter((i) => i.offset > lastEventId));
      expect(rest.events.at(-1)).toEqual({ event: 'end', data: '{}' });
    }
    // Past every id given out: refused, without promising an item that a closed run will never have.
    const past = await readSse(url(handle.workflowId), { token: TOKEN, lastEventId: String(last.offset + 1) });
    expect(past).toMatchObject({ status: 400, body: { error: { code: 'invalid_offset' } } });
    expect((past.body as { error: { message: string } }).error.message).toMatch(/has ended/);
    expect((past.body as { error: { message: string } }).error.message).not.toMatch(/yet|will be/);
    // The CLI likewise: from just past the added end, nothing and exit 0; further, a usage error.
    expect(await runHitl(h, ['--json', 'watch', handle.workflowId, '--from', String(last.offset + 1)])).toMatchObject({
      code: 0,
      stdout: '',
    });
    const cliPast = await runHitl(h, ['watch', handle.workflowId, '--from', String(last.offset + 2)]);
    expect(cliPast.code).toBe(2);
    expect(cliPast.stderr).toMatch(/has ended/);
  });

  it('resumes a completed run after its last id with nothing, and refuses past it without promising more', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'sse live, resumed at its end' });
    await handle.result();
    const last = itemsOf((await readSse(url(handle.workflowId), { token: TOKEN, until: ended })).events).at(-1)!;
    const atEnd = await readSse(url(handle.workflowId), { token: TOKEN, lastEventId: String(last.offset), until: ended });
    expect(atEnd.status).toBe(200);
    expect(itemsOf(atEnd.events)).toEqual([]);
    const past = await readSse(url(handle.workflowId), { token: TOKEN, lastEventId: String(last.offset + 1) });
    expect(past).toMatchObject({ status: 400, body: { error: { code: 'invalid_offset' } } });
    expect((past.body as { error: { message: string } }).error.message).not.toMatch(/yet|will be/);
  });

  it('answers a workflow that is not an agent run, or that no worker runs, with a typed refusal, not a 500 or a wait', async () => {
    const store = storeWorkflowId([uniqueName('x'), 'y']);
    await h.temporal.client.workflow.start(STORE_WORKFLOW_TYPE, {
      taskQueue: h.taskQueue,
      workflowId: store,
      args: [{ namespace: store.split('/').slice(1) }],
    });
    const notAgent = { error: { code: 'not_an_agent_run', message: expect.stringContaining('not an agent run') } };
    expect(await readSse(url(store), { token: TOKEN })).toMatchObject({ status: 404, body: notAgent });
    const view = await fetch(`${api.url}/api/runs/${encodeURIComponent(store)}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect({ status: view.status, body: await view.json() }).toMatchObject({ status: 404, body: notAgent });
    const watched = await runHitl(h, ['watch', store]);
    expect(watched.code).toBe(4);
    expect(watched.stderr).toContain('not an agent run');
    // Nor does it take a session's message or end, show a run's tools (it used to: 409 session_closed, and ours), or
    // take a decision (409 run_stuck, which advised deploying a worker for it).
    const approval = encodeApprovalId({ workflowId: store, callId: 'call-1' });
    for (const [method, path] of [
      ['POST', `/api/runs/${encodeURIComponent(store)}/messages`],
      ['POST', `/api/runs/${encodeURIComponent(store)}/end`],
      ['GET', `/api/tools?run=${encodeURIComponent(store)}`],
      ['POST', `/api/runs/${encodeURIComponent(store)}/decisions`],
      ['POST', `/api/approvals/${approval}/approve`],
    ] as const) {
      const answer = await call(method, path);
      expect(answer, `${method} ${path}`).toMatchObject({ status: 404, body: notAgent });
    }

    // An agent run on a task queue no worker polls: said at once, as `hitl show` says it.
    const orphan = await h.temporal.client.workflow.start(WORKFLOW_TYPE, {
      taskQueue: uniqueName('no-worker'),
      workflowId: uniqueName('orphan'),
      args: [{ agent: 'demo', prompt: 'nobody runs me' }],
    });
    const started = Date.now();
    const stuck = await readSse(url(orphan.workflowId), { token: TOKEN });
    expect(stuck).toMatchObject({
      status: 409,
      body: { error: { code: 'run_stuck', message: expect.stringContaining('no worker polls') } },
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    const stuckWatch = await runHitl(h, ['watch', orphan.workflowId]);
    expect(stuckWatch.code).toBe(5);
    expect(stuckWatch.stderr).toContain('no worker polls');
    // A message or an end would wait for that worker (the update hung for minutes), and its tools' query failed 503.
    const stuckBody = { error: { code: 'run_stuck', message: expect.stringContaining('no worker polls') } };
    for (const [method, path] of [
      ['POST', `/api/runs/${orphan.workflowId}/messages`],
      ['POST', `/api/runs/${orphan.workflowId}/end`],
      ['GET', `/api/tools?run=${orphan.workflowId}`],
    ] as const) {
      const asked = Date.now();
      expect(await call(method, path), `${method} ${path}`).toMatchObject({ status: 409, body: stuckBody });
      expect(Date.now() - asked).toBeLessThan(10_000);
    }
    const said = await runHitl(h, ['say', orphan.workflowId, 'hello?']);
    expect(said.code).toBe(5);
    await orphan.terminate();
    await h.temporal.client.workflow.getHandle(store).terminate();
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, { get?: { responses: object } }> };
    expect(Object.keys(doc.paths['/api/runs/{id}/events']?.get?.responses ?? {})).toEqual(['200', '400', '401', '404', '409', '429']);
  });
});
