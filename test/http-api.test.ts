/** Every route of the HTTP approval API over real HTTP, against the real worker and dev server. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import type { Listening } from '../src/api/listen.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { startOf, waitFor } from './helpers/history.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { newSigner } from './helpers/signing.js';

const agent = defineAgent({ ...demoAgent, name: 'httpdemo' });
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const TOKENS = {
  'alice-token-0123456789': { approver: 'alice', groups: ['finance'] },
  'bob-token-012345678901': { approver: 'bob', groups: ['support'] },
  'rita-token-01234567890': { approver: 'rita', groups: ['finance'] },
};
type Who = 'alice' | 'bob' | 'rita';

let h: Harness;
let api: Listening;
let apiFourEyes: Listening;
const logLines: string[] = [];

beforeAll(async () => {
  h = await startHarness({
    agents: { httpdemo: agent },
    script: {
      conversations: [
        {
          match: 'http refund',
          replies: [{ toolCalls: [call('r1', 'process_refund', { orderId: '1237', amount: 12000 })] }, { content: 'refund handled' }],
        },
        {
          match: 'http four',
          replies: [
            {
              toolCalls: [
                call('w1', 'write_file', { path: 'w1.txt', content: '1' }),
                call('w2', 'write_file', { path: 'w2.txt', content: '2' }),
                call('w3', 'write_file', { path: 'w3.txt', content: '3' }),
                call('w4', 'write_file', { path: 'w4.txt', content: '4' }),
              ],
            },
            { content: 'files handled' },
          ],
        },
        { match: 'http race', replies: [{ toolCalls: [call('x1', 'cancel_order', { orderId: '1238' })] }, { content: 'race handled' }] },
        {
          match: 'signing switched on',
          replies: [{ toolCalls: [call('s1', 'write_file', { path: 'signed.txt', content: 's' })] }, { content: 'signing handled' }],
        },
        { match: 'cli side', replies: [{ toolCalls: [call('c1', 'cancel_order', { orderId: '1235' })] }, { content: 'cli handled' }] },
        {
          match: 'ended while it waited',
          replies: [{ toolCalls: [call('e1', 'cancel_order', { orderId: '1236' })] }, { content: 'never' }],
        },
      ],
    },
  });
  const options = { tokens: TOKENS, bodyLimitBytes: 4096, log: (l: string) => logLines.push(l) };
  api = await startTestApi(h, { ...options, fourEyes: false });
  apiFourEyes = await startTestApi(h, { ...options, fourEyes: true });
});
afterAll(async () => {
  await api?.close();
  await apiFourEyes?.close();
  await h?.close();
});

async function request(
  base: Listening,
  who: Who | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const token = who && Object.entries(TOKENS).find(([, id]) => id.approver === who)![0];
  const response = await fetch(`${base.url}${path}`, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}
const as = (who: Who | null, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  request(api, who, method, path, body, headers);

async function startAndWait(base: Listening, who: Who, prompt: string, count: number) {
  const started = await request(base, who, 'POST', '/api/runs', { agent: 'httpdemo', prompt });
  expect(started.status).toBe(201);
  const runId: string = started.body.workflowId;
  await waitFor(async () => (await as('alice', 'GET', `/api/runs/${runId}`)).body.pending?.length === count);
  return runId;
}

describe('auth', () => {
  it('answers 401 without a token or with an unknown one, and never logs tokens', async () => {
    expect(await as(null, 'GET', '/api/approvals')).toEqual({
      status: 401,
      body: { error: { code: 'unauthorized', message: 'Send a valid bearer token (Authorization: Bearer <token>).' } },
    });
    const wrong = await fetch(`${api.url}/api/approvals`, { headers: { authorization: 'Bearer alice-token-0123456788' } });
    expect(wrong.status).toBe(401);
    expect((await as('alice', 'GET', '/api/me')).body).toEqual({ approver: 'alice', groups: ['finance'] });
    expect(logLines.join('\n')).not.toMatch(/token-/);
    expect(logLines).toContain(logLines.find((l) => l.startsWith('[api] GET "/api/me" 200') && l.endsWith(' alice')));
  });

  it('logs a path quoted: a line break decoded from it cannot forge a line, even without a token', async () => {
    const forged = await fetch(`${api.url}/api/runs/x%0A[api]%20POST%20/api/x%20200%201ms%20root`);
    expect(forged.status).toBe(401);
    expect(
      logLines
        .join('\n')
        .split('\n')
        .filter((l) => l.startsWith('[api] POST /api/x')),
    ).toEqual([]);
    const quoted = '[api] GET "/api/runs/x\\n[api] POST /api/x 200 1ms root" 401 ';
    expect(logLines.filter((l) => l.startsWith(quoted))).toHaveLength(1);
  });

  it('tells a caller without a token nothing about its body: 401 before any check of the JSON or its size', async () => {
    for (const body of [
      '{not json',
      '{"a": 1, "a": 2}',
      `${'['.repeat(70)}${']'.repeat(70)}`,
      JSON.stringify({ prompt: 'x'.repeat(5000) }),
    ]) {
      expect(await as(null, 'POST', '/api/runs', body), body.slice(0, 20)).toMatchObject({
        status: 401,
        body: { error: { code: 'unauthorized' } },
      });
    }
    // A public path takes no body: it is not read either, and the answer says the path takes GET.
    for (const path of ['/api/health', '/api/openapi.json']) {
      expect(await as(null, 'POST', path, '{not json'), path).toMatchObject({
        status: 405,
        body: { error: { code: 'method_not_allowed' } },
      });
    }
    expect(await as('alice', 'POST', '/api/runs', '{not json')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    });
  });
});

describe('approvals', () => {
  it('lists, shows and approves, with 403 for a non-approver and 409 for a stale hash and a second decision', async () => {
    const runId = await startAndWait(api, 'rita', 'http refund please', 1);
    const id = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    await waitFor(async () => (await as('bob', 'GET', '/api/approvals?agent=httpdemo')).body.some((a: any) => a.id === id));

    const asBob = (await as('bob', 'GET', '/api/approvals?agent=httpdemo&tool=process_refund')).body.find((a: any) => a.id === id);
    expect(asBob).toMatchObject({
      id,
      workflowId: runId,
      callId: 'call-1',
      agent: 'httpdemo',
      toolName: 'process_refund',
      arguments: { orderId: '1237', amount: 12000 },
      argsHash: expect.stringMatching(/^sha256:/),
      allowedDecisions: ['approve', 'edit', 'reject', 'respond', 'ignore'],
      userPrompt: 'http refund please',
      requestedBy: 'rita',
      approvers: ['finance'],
      canDecide: false,
      // What bob would be refused with: the inbox words it, and keeps no copy of the rule.
      whyNot: { code: 'approver_not_allowed' },
      temporalUiUrl: `http://ui.test/namespaces/default/workflows/${runId}`,
    });
    expect((await as('alice', 'GET', '/api/approvals?tool=write_file')).body.some((a: any) => a.id === id)).toBe(false);
    const one = await as('alice', 'GET', `/api/approvals/${id}`);
    const { whyNot: _bobs, ...asAlice } = asBob;
    expect(one).toMatchObject({ status: 200, body: { ...asAlice, canDecide: true } });
    expect(one.body.whyNot).toBeUndefined();

    expect(await as('bob', 'POST', `/api/approvals/${id}/approve`, {})).toMatchObject({
      status: 403,
      body: { error: { code: 'approver_not_allowed' } },
    });
    // Nor may a body say who decides, by name or by a decision token: bob's token is bob, whatever the body claims.
    for (const claim of [
      { approver: 'alice' },
      { groups: ['finance'] },
      { decisions: [{ id: 'call-1', type: 'approve', token: 'eyJ.forged.x' }] },
    ]) {
      const body = { decisions: [{ id: 'call-1', type: 'approve' }], ...claim };
      expect(await as('bob', 'POST', `/api/runs/${runId}/decisions`, body), JSON.stringify(claim)).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request', message: expect.stringContaining('leave out `approver`, `groups` and `token`') } },
      });
    }
    expect(await as('alice', 'POST', `/api/approvals/${id}/approve`, { argsHash: 'sha256:stale' })).toMatchObject({
      status: 409,
      body: { error: { code: 'args_hash_mismatch' } },
    });
    expect(await as('bob', 'GET', `/api/approvals/${id}/status`)).toMatchObject({ status: 200, body: { id, status: 'waiting' } });
    const approved = await as('alice', 'POST', `/api/approvals/${id}/approve`, { argsHash: one.body.argsHash, comment: 'ok by finance' });
    expect(approved).toEqual({
      status: 200,
      body: { applied: [{ id: 'call-1', type: 'approve', toolName: 'process_refund', argsHash: one.body.argsHash, approver: 'alice' }] },
    });
    expect(await as('alice', 'POST', `/api/approvals/${id}/reject`, { reason: 'too late' })).toMatchObject({
      status: 409,
      body: { error: { code: 'already_decided' } },
    });
    // What a Spring-style client polls once the call no longer waits: how it was decided, and by whom.
    expect(await as('bob', 'GET', `/api/approvals/${id}/status`)).toMatchObject({
      status: 200,
      body: { id, callId: 'call-1', status: 'decided', decision: { type: 'approve', approver: 'alice', message: 'ok by finance' } },
    });
    const never = encodeApprovalId({ workflowId: runId, callId: 'call-7' });
    expect(await as('bob', 'GET', `/api/approvals/${never}/status`)).toMatchObject({
      status: 404,
      body: { error: { code: 'approval_not_found' } },
    });
    expect(await as('alice', 'GET', `/api/approvals/${id}`)).toMatchObject({
      status: 404,
      body: { error: { code: 'approval_not_found' } },
    });

    await waitFor(async () => (await as('alice', 'GET', `/api/runs/${runId}`)).body.status === 'Completed');
    const run = (await as('alice', 'GET', `/api/runs/${runId}`)).body;
    expect(run.decisions[0]).toMatchObject({ type: 'approve', approver: 'alice', message: 'ok by finance' });
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1237'").all()).toEqual([{ amount: 12000 }]);
  });

  it('rejects, edits (refusing invalid arguments), responds, and approves with modified arguments', async () => {
    const runId = await startAndWait(api, 'bob', 'http four files', 4);
    const id = (callId: string) => encodeApprovalId({ workflowId: runId, callId });
    expect(await as('bob', 'POST', `/api/approvals/${id('call-1')}/reject`, { reason: 'not needed', always: false })).toMatchObject({
      status: 200,
    });
    expect(await as('bob', 'POST', `/api/approvals/${id('call-2')}/edit`, { arguments: { path: 'w2.txt', content: 7 } })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_edit_args', message: expect.stringContaining('expected string, received number') } },
    });
    expect(
      await as('bob', 'POST', `/api/approvals/${id('call-2')}/edit`, { arguments: { path: 'w2.txt', content: 'edited' } }),
    ).toMatchObject({
      status: 200,
    });
    expect(await as('bob', 'POST', `/api/approvals/${id('call-3')}/respond`, { message: 'I wrote it by hand' })).toMatchObject({
      status: 200,
    });
    expect(
      await as('bob', 'POST', `/api/approvals/${id('call-4')}/approve`, { modifiedArguments: { path: 'w4.txt', content: 'four' } }),
    ).toMatchObject({
      status: 200,
      body: { applied: [{ type: 'edit' }] },
    });
    await waitFor(async () => (await as('bob', 'GET', `/api/runs/${runId}`)).body.status === 'Completed');
    const tools = (await as('bob', 'GET', `/api/runs/${runId}`)).body.messages
      .filter((m: any) => m.role === 'tool')
      .map((m: any) => m.content);
    expect(tools).toEqual([
      'Rejected by a human reviewer; write_file did not run. Reason: not needed',
      '(A human reviewer edited the arguments before it ran: {"path":"w2.txt","content":"edited"})\nWrote 6 bytes to w2.txt.',
      'I wrote it by hand',
      '(A human reviewer edited the arguments before it ran: {"path":"w4.txt","content":"four"})\nWrote 4 bytes to w4.txt.',
    ]);
    // Only what is new: messages and decisions after those already read.
    const whole = (await as('bob', 'GET', `/api/runs/${runId}`)).body;
    const newer = (await as('bob', 'GET', `/api/runs/${runId}?messagesFrom=3&decisionsFrom=2`)).body;
    expect(newer).toMatchObject({ messagesFrom: 3, messages: whole.messages.slice(3), decisionsFrom: 2 });
    expect(newer.decisions).toEqual(whole.decisions.filter((d: { seq: number }) => d.seq > 2));
    for (const query of ['messagesFrom=-1', 'decisionsFrom=1e3', 'messagesFrom=', 'limit=5']) {
      expect((await as('bob', 'GET', `/api/runs/${runId}?${query}`)).status, query).toBe(400);
    }
  });

  it('answers a retried decision with the same Idempotency-Key as the first attempt, and applies it once', async () => {
    const runId = await startAndWait(api, 'bob', 'http four files, sent twice', 4);
    const id = (callId: string) => encodeApprovalId({ workflowId: runId, callId });
    const once = { 'idempotency-key': 'retry-me-1' };
    const first = await as('bob', 'POST', `/api/approvals/${id('call-1')}/approve`, { comment: 'go' }, once);
    expect(first).toMatchObject({ status: 200, body: { applied: [{ id: 'call-1', type: 'approve', approver: 'bob' }] } });
    expect(await as('bob', 'POST', `/api/approvals/${id('call-1')}/approve`, { comment: 'go' }, once)).toEqual(first);

    // The key answers only for the same caller and the same body; anything else is decided as the request it is.
    expect(await as('bob', 'POST', `/api/approvals/${id('call-1')}/reject`, {}, once)).toMatchObject({
      status: 409,
      body: { error: { code: 'already_decided' } },
    });
    expect(await as('alice', 'POST', `/api/approvals/${id('call-1')}/approve`, { comment: 'go' }, once)).toMatchObject({
      status: 409,
      body: { error: { code: 'already_decided' } },
    });
    expect(await as('bob', 'POST', `/api/approvals/${id('call-2')}/approve`, {}, { 'idempotency-key': 'has a space' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('Idempotency-Key') } },
    });

    for (const callId of ['call-2', 'call-3', 'call-4'])
      expect((await as('bob', 'POST', `/api/approvals/${id(callId)}/reject`, {})).status).toBe(200);
    await waitFor(async () => (await as('bob', 'GET', `/api/runs/${runId}`)).body.status === 'Completed');
    const run = (await as('bob', 'GET', `/api/runs/${runId}`)).body;
    expect(run.decisions.filter((d: any) => d.id === 'call-1')).toEqual([expect.objectContaining({ type: 'approve', message: 'go' })]);
    expect(run.messages.filter((m: any) => m.role === 'tool' && m.tool_call_id === 'w1')).toHaveLength(1);
    // Temporal keeps the update's outcome with the closed run, so a retry after the end still gets the first answer.
    expect(await as('bob', 'POST', `/api/approvals/${id('call-1')}/approve`, { comment: 'go' }, once)).toEqual(first);
  });

  it('takes a long poll of 0 to 60 seconds in digits, and nothing else', async () => {
    for (const wait of ['1e1', '0x1', ' 5', '61', '-1', '2.5']) {
      expect(await as('alice', 'GET', `/api/approvals?agent=none&wait=${encodeURIComponent(wait)}`)).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });
    }
    expect(await as('alice', 'GET', '/api/approvals?agent=none&wait=0')).toEqual({ status: 200, body: [] });
  });

  it('answers a long poll for one run at once when that run will never wait: none such, not a run, or closed', async () => {
    const closed = await startAndWait(api, 'bob', 'http refund, then closed', 1);
    await h.temporal.client.workflow.getHandle(closed).terminate('closed for the test');
    const store = await h.temporal.client.workflow.start('storeWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `hitl-store/${closed}`,
      args: [{ namespace: [closed] }],
    });
    const started = Date.now();
    expect(await as('alice', 'GET', '/api/approvals?workflowId=no-such-run&wait=30')).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    });
    expect(await as('alice', 'GET', `/api/approvals?workflowId=${encodeURIComponent(store.workflowId)}&wait=30`)).toMatchObject({
      status: 404,
      body: { error: { code: 'not_an_agent_run' } },
    });
    expect(await as('alice', 'GET', `/api/approvals?workflowId=${closed}&wait=30`)).toEqual({ status: 200, body: [] });
    expect(Date.now() - started).toBeLessThan(10_000);
    await store.terminate();
  });

  it('stops asking for the list once the client of a long poll has gone', async () => {
    const hitl = new HitlClient(h.temporal.client, h.taskQueue);
    let asked = 0;
    const list = hitl.waitingAcrossRuns.bind(hitl);
    hitl.waitingAcrossRuns = (filter) => {
      asked++;
      return list(filter);
    };
    const counted = await startTestApi(h, { tokens: TOKENS, hitl });
    try {
      const gone = new AbortController();
      const poll = fetch(`${counted.url}/api/approvals?agent=none&wait=30`, {
        headers: { authorization: 'Bearer alice-token-0123456789' },
        signal: gone.signal,
      }).catch(() => 'aborted');
      await waitFor(async () => asked >= 2, 10_000, 'the long poll to ask twice');
      gone.abort();
      expect(await poll).toBe('aborted');
      await new Promise((r) => setTimeout(r, 300));
      const afterGone = asked;
      // It asked every half second while the client waited; a client gone for two seconds more is asked for no more.
      await new Promise((r) => setTimeout(r, 2000));
      expect(asked).toBe(afterGone);
    } finally {
      await counted.close();
    }
  });

  it('answers 404 for unknown and malformed approval ids, 400 for bad bodies, 413 for big ones', async () => {
    expect(await as('alice', 'GET', '/api/approvals/not-an-id')).toMatchObject({
      status: 404,
      body: { error: { code: 'approval_not_found' } },
    });
    const ghost = encodeApprovalId({ workflowId: 'no-such-run', callId: 'x' });
    expect(await as('alice', 'POST', `/api/approvals/${ghost}/approve`, {})).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    });
    expect(await as('alice', 'POST', `/api/approvals/${ghost}/approve`, { alwayz: true })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('Unrecognized key: "alwayz"') } },
    });
    // A key in the query string of a route that reads none is refused as such: the caller is told where it was.
    expect(await as('alice', 'POST', `/api/approvals/${ghost}/approve?reason=why`, {})).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringMatching(/^In the query string:\n✖ Unrecognized key: "reason"/) } },
    });
    expect(await as('alice', 'POST', `/api/approvals/${ghost}/reject?reason=a&reason=b`)).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringMatching(/^In the query string:\n✖ given more than once: give it once\n  → at reason/) } },
    });
    // Every route that takes no query string refuses one, and nothing happens: a start is not a dry run.
    const runsBefore = (await as('alice', 'GET', '/api/runs?limit=1000')).body.length;
    for (const [method, path, body] of [
      ['POST', '/api/runs?dryRun=true', { agent: 'demo', prompt: 'never started' }],
      ['GET', `/api/approvals/${ghost}?x=1`],
      ['POST', `/api/runs/no-such-run/decisions?x=1`, { decisions: [] }],
      ['POST', '/api/runs/no-such-run/messages?x=1', { content: 'hi' }],
      ['POST', '/api/runs/no-such-run/end?x=1'],
      ['GET', '/api/agents?x=1'],
    ] as const) {
      expect(await as('alice', method, path, body), path).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request', message: expect.stringMatching(/^In the query string:/) } },
      });
    }
    expect((await as('alice', 'GET', '/api/runs?limit=1000')).body.length).toBe(runsBefore);
    expect(await as('alice', 'POST', `/api/approvals/${ghost}/respond`, '{not json')).toMatchObject({ status: 400 });
    expect(await as('alice', 'POST', `/api/approvals/${ghost}/respond`, { message: 'x'.repeat(5000) })).toMatchObject({
      status: 413,
      body: { error: { code: 'body_too_large' } },
    });
    expect(await as('alice', 'GET', '/api/nowhere')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    // A route that takes another method: 405, with what it takes, rather than "no route".
    for (const [method, path, allow] of [
      ['GET', `/api/approvals/${ghost}/approve`, 'POST'],
      ['PUT', '/api/runs', 'GET, HEAD, POST'],
      ['DELETE', '/api/runs/some-run', 'GET, HEAD'],
    ] as const) {
      const response = await fetch(`${api.url}${path}`, { method, headers: { authorization: 'Bearer alice-token-0123456789' } });
      expect([response.status, response.headers.get('allow'), ((await response.json()) as any).error.code], `${method} ${path}`).toEqual([
        405,
        allow,
        'method_not_allowed',
      ]);
    }
    // A message that quotes what was sent shows what would hide or rewrite it as escapes: a bidi override, a
    // terminal's escape. Its own line breaks stay.
    const quoted = await as('alice', 'GET', '/api/runs/run%E2%80%AEfdp.exe%1B%5B2K');
    expect(quoted).toMatchObject({ status: 404, body: { error: { message: expect.stringContaining('run\\u202efdp.exe\\u001b[2K') } } });
    expect(quoted.body.error.message).not.toMatch(/[\u202e\u001b]/);
    const lines = await as('alice', 'POST', '/api/runs', { agent: 'httpdemo' });
    expect(lines).toMatchObject({
      status: 400,
      body: { error: { message: '✖ Invalid input: expected string, received undefined\n  → at prompt' } },
    });
  });

  it('lets exactly one of two approvers deciding at once win; the other gets 409', async () => {
    const runId = await startAndWait(api, 'bob', 'http race', 1);
    const id = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    const results = await Promise.all([
      as('alice', 'POST', `/api/approvals/${id}/approve`, {}),
      as('bob', 'POST', `/api/approvals/${id}/reject`, {}),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.error.code).toBe('already_decided');
  });
});

describe('four eyes', () => {
  it('stops the requester from approving their own gated call; a colleague may', async () => {
    const runId = await startAndWait(apiFourEyes, 'rita', 'http refund, four eyes', 1);
    const id = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    const mine = (await request(apiFourEyes, 'rita', 'GET', `/api/approvals/${id}`)).body;
    expect(mine).toMatchObject({ requestedBy: 'rita', canDecide: false });
    expect(await request(apiFourEyes, 'rita', 'POST', `/api/approvals/${id}/approve`, {})).toMatchObject({
      status: 403,
      body: {
        error: {
          code: 'four_eyes',
          message: 'rita requested this run and may not approve its own process_refund (call-1); another approver must.',
        },
      },
    });
    expect(await request(apiFourEyes, 'alice', 'POST', `/api/approvals/${id}/approve`, {})).toMatchObject({ status: 200 });
  });

  it('keeps the requester from answering for the tool too, and lets them withdraw the call, as the views say', async () => {
    const runId = await startAndWait(apiFourEyes, 'rita', 'http refund, four eyes, answered', 1);
    const id = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    // Rita is in finance, the call's approvers: four eyes leaves her the withdrawal only, and her view says so.
    const mine = (await request(apiFourEyes, 'rita', 'GET', `/api/approvals/${id}`)).body;
    expect(mine).toMatchObject({ canDecide: false, whyNot: { code: 'four_eyes' }, canWithdraw: true });
    expect(mine.whyNot.proposer).toBeUndefined();
    const before = (await request(apiFourEyes, 'alice', 'GET', `/api/runs/${runId}`)).body;
    expect(await request(apiFourEyes, 'rita', 'POST', `/api/approvals/${id}/respond`, { message: 'Refunded by hand' })).toEqual({
      status: 403,
      body: {
        error: {
          code: 'four_eyes',
          message: 'rita requested this run and may not respond to its own process_refund (call-1); another approver must.',
        },
      },
    });
    const after = (await request(apiFourEyes, 'alice', 'GET', `/api/runs/${runId}`)).body;
    expect({ pending: after.pending, decisions: after.decisions, step: after.step }).toEqual({
      pending: before.pending,
      decisions: before.decisions,
      step: before.step,
    });
    // A colleague's view offers no withdrawal: they may decide.
    expect((await request(apiFourEyes, 'alice', 'GET', `/api/approvals/${id}`)).body).toMatchObject({ canDecide: true });
    expect((await request(apiFourEyes, 'alice', 'GET', `/api/approvals/${id}`)).body.canWithdraw).toBeUndefined();
    expect(
      await request(apiFourEyes, 'rita', 'POST', `/api/approvals/${id}/reject`, { reason: 'I asked for the wrong order' }),
    ).toMatchObject({
      status: 200,
      body: { applied: [{ id: 'call-1', type: 'reject', approver: 'rita' }] },
    });
  });
});

describe('runs', () => {
  it('starts, shows and lists runs; 404 for an unknown run; 400 for a bad body', async () => {
    expect(await as('alice', 'POST', '/api/runs', { agent: 'httpdemo' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    });
    expect(await as('alice', 'GET', '/api/runs/no-such-run')).toMatchObject({ status: 404, body: { error: { code: 'run_not_found' } } });
    const runId = await startAndWait(api, 'alice', 'http race again', 1);
    await waitFor(async () =>
      (await as('alice', 'GET', '/api/runs?status=AwaitingApproval&agent=httpdemo')).body.some((r: any) => r.workflowId === runId),
    );
    const listed = (await as('alice', 'GET', '/api/runs?status=AwaitingApproval&agent=httpdemo')).body.find(
      (r: any) => r.workflowId === runId,
    );
    expect(listed).toMatchObject({
      agent: 'httpdemo',
      status: 'AwaitingApproval',
      pendingCount: 1,
      pendingTools: ['cancel_order'],
      requestedBy: 'alice',
    });
    expect(await as('alice', 'GET', '/api/runs?status=Sleeping')).toMatchObject({ status: 400 });
  });

  it('cancels a run for its requester only; 409 once it has closed, 404 for none', async () => {
    const runId = await startAndWait(api, 'alice', 'http race to cancel', 1);
    expect(await as('bob', 'POST', `/api/runs/${runId}/cancel`)).toMatchObject({ status: 403, body: { error: { code: 'not_requester' } } });
    // A body the route does not read is refused, not ignored: the sender meant something by it.
    expect(await as('alice', 'POST', `/api/runs/${runId}/cancel`, { force: true })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('force') } },
    });
    expect(await as('alice', 'POST', `/api/runs/${runId}/end`, { force: true })).toMatchObject({ status: 400 });
    expect((await as('alice', 'GET', `/api/runs/${runId}`)).body).toMatchObject({ status: 'AwaitingApproval' });
    expect(await as('alice', 'POST', `/api/runs/${runId}/cancel`, {})).toEqual({ status: 202, body: { cancelling: true } });
    await expect(h.temporal.client.workflow.getHandle(runId).result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
    expect((await as('alice', 'GET', `/api/runs/${runId}`)).body).toMatchObject({ status: 'Canceled', pending: [] });
    expect(await as('alice', 'POST', `/api/runs/${runId}/cancel`)).toMatchObject({ status: 409, body: { error: { code: 'run_closed' } } });
    expect(await as('alice', 'POST', '/api/runs/no-such-run/cancel')).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    });
  });

  it('starts a run with its own continue-as-new terms, and refuses terms out of range', async () => {
    const refused = await as('alice', 'POST', '/api/runs', { agent: 'httpdemo', prompt: 'hi', continueAsNew: { beforeWaitEvents: 10 } });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    expect(refused.body.error.message).toContain('continueAsNew.beforeWaitEvents');
    const terms = { beforeWaitEvents: 60, compaction: { keepLastTurns: 2, summarize: false } };
    const started = await as('alice', 'POST', '/api/runs', { agent: 'httpdemo', prompt: 'http race again', continueAsNew: terms });
    expect(started.status).toBe(201);
    const { input } = await startOf(h.temporal.client.workflow.getHandle(started.body.workflowId));
    expect(input).toMatchObject({ agent: 'httpdemo', requestedBy: 'alice', continueAsNew: terms });
  });

  it('serves an OpenAPI document generated from the schemas', async () => {
    const doc = (await as(null, 'GET', '/api/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/agents',
      '/api/approvals',
      '/api/approvals/{id}',
      '/api/approvals/{id}/approve',
      '/api/approvals/{id}/edit',
      '/api/approvals/{id}/reject',
      '/api/approvals/{id}/respond',
      '/api/approvals/{id}/status',
      '/api/me',
      '/api/runs',
      '/api/runs/{id}',
      '/api/runs/{id}/cancel',
      '/api/runs/{id}/decisions',
      '/api/runs/{id}/end',
      '/api/runs/{id}/events',
      '/api/runs/{id}/messages',
      '/api/tools',
    ]);
    const approveBody = doc.paths['/api/approvals/{id}/approve'].post.requestBody.content['application/json'].schema;
    expect(approveBody).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(approveBody.properties).sort()).toEqual(['always', 'argsHash', 'comment', 'modifiedArguments']);
  });

  it("documents on every operation the answers the API's middleware gives before any route runs, and gives them", async () => {
    const doc = (await as(null, 'GET', '/api/openapi.json')).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: object; responses: object }>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, op]) => ({ at: `${method} ${path}`, path, op })),
    );
    for (const { at, path, op } of operations) {
      const codes = Object.keys(op.responses);
      expect(codes, at).toContain('429');
      if (path !== '/api/openapi.json' && path !== '/api/health') expect(codes, at).toContain('401');
      if (op.requestBody) expect(codes, at).toEqual(expect.arrayContaining(['413', '415']));
    }
    expect(doc.paths['/api/approvals/{id}/respond'].post.responses['415'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorBody',
    });
    expect(doc.components.schemas.ErrorBody).toMatchObject({ type: 'object', required: ['error'] });
    expect(Object.keys(doc.paths['/api/me'].get.responses['429'].headers).sort()).toEqual(['RateLimit', 'RateLimit-Policy']);
    expect(doc.paths['/api/approvals'].get.responses['404'].description).toMatch(/workflowId/);
    // A route's own description of an answer stays its own.
    expect(doc.paths['/api/me'].get.responses['401'].description).toBe('Missing or unknown token');
    // And the API sends the 415 the document names: a body labelled as something that is not JSON.
    expect(await as('alice', 'POST', '/api/runs', '<run agent="httpdemo"/>', { 'content-type': 'application/xml' })).toMatchObject({
      status: 415,
      body: { error: { code: 'unsupported_media_type' } },
    });
    // A compressed body, or one labelled so, is not read as if it were plain: a run started from it would be a guess.
    const runsBefore = (await as('alice', 'GET', '/api/runs?limit=1000')).body.length;
    const gzipped = gzipSync(JSON.stringify({ agent: 'httpdemo', prompt: 'compressed' }));
    for (const [body, encoding] of [
      [gzipped, 'gzip'],
      [JSON.stringify({ agent: 'httpdemo', prompt: 'labelled zstd' }), 'zstd'],
    ] as const) {
      const response = await fetch(`${api.url}/api/runs`, {
        method: 'POST',
        headers: { authorization: 'Bearer alice-token-0123456789', 'content-type': 'application/json', 'content-encoding': encoding },
        body,
      });
      expect({ status: response.status, body: await response.json() }).toMatchObject({
        status: 415,
        body: {
          error: { code: 'unsupported_media_type', message: expect.stringContaining(`Content-Encoding ${encoding} is not read here`) },
        },
      });
    }
    expect((await as('alice', 'GET', '/api/runs?limit=1000')).body.length).toBe(runsBefore);
  });
});

describe('hardening', () => {
  it('limits requests per token, and callers without a valid token per address', async () => {
    const limited = await startTestApi(h, { tokens: TOKENS, rateLimitPerMinute: 5 });
    try {
      const statuses = async (who: Who | null, n: number) => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) out.push((await request(limited, who, 'GET', '/api/me')).status);
        return out;
      };
      expect(await statuses('alice', 6)).toEqual([200, 200, 200, 200, 200, 429]);
      const refused = await request(limited, 'alice', 'GET', '/api/me');
      expect(refused).toEqual({
        status: 429,
        body: { error: { code: 'rate_limited', message: 'Too many requests: the limit is 5 a minute. Try again shortly.' } },
      });
      // With the headers the OpenAPI document names for every 429.
      const headers = (await fetch(`${limited.url}/api/me`, { headers: { authorization: 'Bearer alice-token-0123456789' } })).headers;
      expect([headers.get('ratelimit'), headers.get('ratelimit-policy')]).toEqual([
        expect.stringMatching(/limit=5, remaining=0/),
        '5;w=60',
      ]);
      expect(await statuses('bob', 2)).toEqual([200, 200]);
      // Guessing tokens: every unknown token counts against the same address.
      expect(await statuses(null, 6)).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('logs one line per request with no token, header or body in it', () => {
    const all = logLines.join('\n');
    for (const secret of Object.keys(TOKENS)) expect(all).not.toContain(secret);
    for (const body of ['modifiedArguments', 'not needed', 'Bearer']) expect(all).not.toContain(body);
    expect(logLines.every((l) => /^\[api\] (GET|POST|PUT|DELETE|OPTIONS) "(?:[^"\\\n]|\\.)*" \d{3} \d+ms \S+$/.test(l))).toBe(true);
  });
});

describe('HTTP and the temporal CLI side by side', () => {
  it('one approval decided over HTTP while another run is decided from the temporal CLI, both ending correctly', async () => {
    const viaHttp = await startAndWait(api, 'bob', 'http race, again over http', 1);
    const viaCli = await startAndWait(api, 'bob', 'cli side of things', 1);
    const cli = promisify(execFile)(inject('temporalCliPath'), [
      'workflow',
      'update',
      'execute',
      '--address',
      h.temporal.address,
      '--workflow-id',
      viaCli,
      '--name',
      'decide',
      '--input',
      JSON.stringify({ decisions: [{ id: 'call-1', type: 'reject', message: 'not from the CLI' }], approver: 'ops' }),
    ]);
    const http = as('alice', 'POST', `/api/approvals/${encodeApprovalId({ workflowId: viaHttp, callId: 'call-1' })}/approve`, {});
    const [, httpResult] = await Promise.all([cli, http]);
    expect(httpResult.status).toBe(200);
    await waitFor(async () => (await as('alice', 'GET', `/api/runs/${viaCli}`)).body.status === 'Completed');
    await waitFor(async () => (await as('alice', 'GET', `/api/runs/${viaHttp}`)).body.status === 'Completed');
    expect((await as('alice', 'GET', `/api/runs/${viaCli}`)).body.decisions[0]).toMatchObject({
      type: 'reject',
      approver: 'ops',
      via: 'update',
    });
    expect((await as('alice', 'GET', `/api/runs/${viaHttp}`)).body.decisions[0]).toMatchObject({ type: 'approve', approver: 'alice' });
  });
});

describe('the status of an approval', () => {
  it('says unsettled once its run ended while it waited, and knows no later announcement that was never made', async () => {
    const runId = await startAndWait(api, 'bob', 'ended while it waited', 1);
    const forged = encodeApprovalId({ workflowId: runId, callId: 'call-1.7' });
    expect(await as('bob', 'GET', `/api/approvals/${forged}/status`)).toMatchObject({
      status: 404,
      body: { error: { code: 'approval_not_found' } },
    });
    expect((await as('bob', 'GET', `/api/approvals/${forged}`)).body.error.message).not.toContain('waits again');
    await h.temporal.client.workflow.getHandle(runId).terminate('ended by hand');
    const id = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    expect(await as('bob', 'GET', `/api/approvals/${id}/status`)).toMatchObject({
      status: 200,
      body: { id, callId: 'call-1', status: 'unsettled' },
    });
  });
});

describe('signing switched on while runs wait', () => {
  it('a run that started checking no tokens is still decided by a signing API and CLI, in the caller’s name', async () => {
    const key = newSigner('EdDSA', 'switched-on');
    const signingApi = await startTestApi(h, { tokens: TOKENS, signer: key });
    try {
      // Started before: this worker trusts no signer, so the run checks no tokens and takes who decides as named.
      const overHttp = await startAndWait(api, 'bob', 'signing switched on, over HTTP', 1);
      const id = encodeApprovalId({ workflowId: overHttp, callId: 'call-1' });
      expect(await request(signingApi, 'alice', 'POST', `/api/approvals/${id}/approve`, {})).toMatchObject({
        status: 200,
        body: { applied: [{ id: 'call-1', type: 'approve', approver: 'alice' }] },
      });
      await waitFor(async () => (await as('alice', 'GET', `/api/runs/${overHttp}`)).body.status === 'Completed');

      const fromCli = await startAndWait(api, 'bob', 'signing switched on, from the CLI', 1);
      const cli = await runHitl(h, ['approve', fromCli, 'call-1', '--as', 'alice', '--group', 'finance'], {
        env: { HITL_SIGNING_KEY: JSON.stringify(key.privateJwk) },
      });
      expect(cli.code, cli.stderr).toBe(0);
      await waitFor(async () => (await as('alice', 'GET', `/api/runs/${fromCli}`)).body.status === 'Completed');
      const decisions = (await as('alice', 'GET', `/api/runs/${fromCli}`)).body.decisions;
      expect(decisions.filter((d: { outcome: string }) => d.outcome === 'applied')).toMatchObject([{ type: 'approve', approver: 'alice' }]);
    } finally {
      await signingApi.close();
    }
  });
});
