/**
 * Clients written for the seeds, pointed at us: a Python `temporalio` client speaking LangChain's and LangGraph's
 * shapes through the `decide` update, the `decision` signal and the `interrupt` / `interruptions` queries, and
 * curl-style HTTP (raw bodies and query strings) speaking Arc Reactor's approval REST. Real server, real worker.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import type { Listening } from '../src/api/listen.js';
import { runStateQuery } from '../src/contract/messages.js';
import { ACCEPTED_SHAPES } from '../src/contract/seed-decisions.js';
import { argsHash } from '../src/policy/args-hash.js';
import type { RunState } from '../src/schemas/run-state.js';
import { ignoredMessage, rejectedMessage } from '../src/workflows/tool-messages.js';
import { startTestApi } from './helpers/api.js';
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { pythonClient, type PythonClient } from './helpers/python-client.js';

const agent = defineAgent({ ...demoAgent, name: 'seeds' });
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const write = (id: string, file: string, content: string) => call(id, 'write_file', { path: file, content });
const TOKENS = { 'alice-token-0123456789': { approver: 'alice', groups: ['finance'] } };

let h: Harness;
let py: PythonClient;
let api: Listening;

beforeAll(async () => {
  h = await startHarness({
    recordAs: 'seed-clients',
    agents: { seeds: agent },
    script: {
      conversations: [
        {
          match: 'langchain resume',
          replies: [
            {
              toolCalls: [write('m1', 'lc-a.txt', 'draft'), write('m2', 'lc-b.txt', 'b'), call('m3', 'execute_sql', { query: 'SELECT 1' })],
            },
            { content: 'langchain done' },
          ],
        },
        {
          match: 'langgraph responses',
          replies: [
            {
              toolCalls: [
                write('g1', 'lg-accept.txt', 'a'),
                write('g2', 'lg-ignore.txt', 'i'),
                write('g3', 'lg-response.txt', 'r'),
                write('g4', 'lg-edit.txt', 'e'),
              ],
            },
            { content: 'langgraph done' },
          ],
        },
        {
          match: 'langgraph accept',
          replies: [{ toolCalls: [call('c1', 'cancel_order', { orderId: '1235' })] }, { content: 'accept done' }],
        },
        { match: 'no shape', replies: [{ toolCalls: [write('n1', 'never.txt', 'n')] }, { content: 'never' }] },
        {
          match: 'coordinate seeds',
          replies: [
            {
              toolCalls: [
                call('k1', 'process_refund', { orderId: '1238', amount: 300 }),
                call('k2', 'ask_researcher', { prompt: 'research: seeds note' }),
              ],
            },
            { content: 'coordinated' },
          ],
        },
        { match: 'research: seeds note', replies: [{ toolCalls: [write('s1', 'seeds.md', 'note')] }, { content: 'noted' }] },
        { match: 'arc reject query', replies: [{ toolCalls: [call('a1', 'cancel_order', { orderId: '1236' })] }, { content: 'arc 1' }] },
        { match: 'arc reject both', replies: [{ toolCalls: [call('a2', 'cancel_order', { orderId: '1236' })] }, { content: 'arc 2' }] },
        { match: 'arc approve modified', replies: [{ toolCalls: [write('a3', 'arc.txt', 'model')] }, { content: 'arc 3' }] },
        { match: 'arc approve bare', replies: [{ toolCalls: [write('a4', 'arc-bare.txt', 'as asked')] }, { content: 'arc 4' }] },
        { match: 'arc approve empty', replies: [{ toolCalls: [write('a5', 'arc-empty.txt', 'as asked')] }, { content: 'arc 5' }] },
        {
          match: 'http seed shapes',
          replies: [{ toolCalls: [write('w1', 'http-1.txt', '1'), write('w2', 'http-2.txt', '2')] }, { content: 'http done' }],
        },
      ],
    },
  });
  py = await pythonClient(h.temporal);
  api = await startTestApi(h, { tokens: TOKENS });
}, 400_000);
afterAll(async () => {
  await api?.close();
  await py?.close();
  await h?.close();
});

/** What the model was sent as tool results, in its order, for the run whose prompt contains `prompt`. */
function toolResultsHeard(prompt: string): string[] {
  const sent = h.model
    .completions()
    .filter((r) => r.messages.some((m) => m.role === 'user' && JSON.stringify(m.content).includes(prompt)))
    .at(-1);
  return (sent?.messages ?? []).flatMap((m) => (m.role === 'tool' ? [String(m.content)] : []));
}

async function finished(handle: WorkflowHandle, output: string): Promise<RunState> {
  await waitFor(async () => (await handle.query(runStateQuery)).status === 'Completed', 30_000, `${output}`);
  const state = await handle.query(runStateQuery);
  expect(state.result?.output).toBe(output);
  return state;
}

const workspaceFile = (name: string) => readFileSync(path.join(h.dataDir, 'workspace', name), 'utf8');
const applied = (state: RunState) => state.decisions.filter((d) => d.outcome === 'applied').map((d) => [d.id, d.type]);

/** A refused input leaves the run exactly as it was: the same state, and for a signal one refusal in the audit log. */
async function refusedUnchanged(handle: WorkflowHandle, via: 'update' | 'signal', send: () => Promise<unknown>): Promise<void> {
  const before = await handle.query(runStateQuery);
  await send();
  if (via === 'signal') {
    await waitFor(
      async () => (await handle.query(runStateQuery)).decisions.length > before.decisions.length,
      20_000,
      'the refusal audited',
    );
  }
  const after = await handle.query(runStateQuery);
  const { decisions: auditBefore, streamOffset: toldBefore, ...restBefore } = before;
  const { decisions: auditAfter, streamOffset: toldAfter, ...restAfter } = after;
  expect(restAfter).toEqual(restBefore);
  const added = auditAfter.slice(auditBefore.length);
  expect(added.map((e) => e.outcome)).toEqual(via === 'signal' ? ['refused'] : []);
  // Watchers are told of an audited refusal as one event on the run's stream; nothing else changed.
  expect(toldAfter).toBe(toldBefore! + added.length);
}

describe('LangChain (Python client)', () => {
  it('reads the interrupt and resumes the batch with an edited_action, an approve and a reject, by the decide update', async () => {
    const handle = await h.start({ agent: 'seeds', prompt: 'langchain resume' });
    await waitForPending(handle, 3);
    const interrupt = await py(handle.workflowId, 'query', 'interrupt');
    expect(interrupt).toEqual({
      ok: true,
      result: {
        action_requests: [
          {
            name: 'write_file',
            args: { path: 'lc-a.txt', content: 'draft' },
            description: expect.stringContaining('write_file'),
            id: 'call-1',
          },
          { name: 'write_file', args: { path: 'lc-b.txt', content: 'b' }, description: expect.any(String), id: 'call-2' },
          { name: 'execute_sql', args: { query: 'SELECT 1' }, description: expect.any(String), id: 'call-3' },
        ],
        review_configs: [
          { action_name: 'write_file', allowed_decisions: ['approve', 'edit', 'reject'] },
          { action_name: 'write_file', allowed_decisions: ['approve', 'edit', 'reject'] },
          { action_name: 'execute_sql', allowed_decisions: ['approve', 'reject'] },
        ],
      },
    });
    const resume = {
      decisions: [
        { type: 'edit', edited_action: { name: 'write_file', args: { path: 'lc-a.txt', content: 'edited by a human' } } },
        { type: 'approve' },
        { type: 'reject', message: 'no SQL today' },
      ],
    };
    const answer = await py(handle.workflowId, 'update', resume);
    expect(answer).toMatchObject({
      ok: true,
      result: {
        applied: [
          { id: 'call-1', type: 'edit' },
          { id: 'call-2', type: 'approve' },
          { id: 'call-3', type: 'reject' },
        ],
      },
    });
    const state = await finished(handle, 'langchain done');
    expect(applied(state)).toEqual([
      ['call-1', 'edit'],
      ['call-2', 'approve'],
      ['call-3', 'reject'],
    ]);
    expect(workspaceFile('lc-a.txt')).toBe('edited by a human');
    const heard = toolResultsHeard('langchain resume');
    expect(heard[2]).toBe(rejectedMessage('execute_sql', 'no SQL today', false));
    expect(await py(handle.workflowId, 'query', 'interrupt')).toEqual({ ok: true, result: null });
  });
});

describe('LangGraph (Python client)', () => {
  it('resumes with one HumanResponse per call (accept, ignore, response, edit) by the decision signal', async () => {
    const handle = await h.start({ agent: 'seeds', prompt: 'langgraph responses' });
    await waitForPending(handle, 4);
    const responses = [
      { type: 'accept', args: null },
      { type: 'ignore', args: null },
      { type: 'response', args: 'I wrote it by hand' },
      { type: 'edit', args: { action: 'write_file', args: { path: 'lg-edit.txt', content: 'edited' } } },
    ];
    expect(await py(handle.workflowId, 'signal', responses)).toEqual({ ok: true });
    const state = await finished(handle, 'langgraph done');
    expect(applied(state)).toEqual([
      ['call-1', 'approve'],
      ['call-2', 'ignore'],
      ['call-3', 'respond'],
      ['call-4', 'edit'],
    ]);
    const heard = toolResultsHeard('langgraph responses');
    expect(heard[0]).toBe('Wrote 1 bytes to lg-accept.txt.');
    // ignore: skipped, and the model is told a human chose to skip it.
    expect(heard[1]).toBe(ignoredMessage('write_file'));
    expect(() => workspaceFile('lg-ignore.txt')).toThrow();
    expect(heard[2]).toBe('I wrote it by hand');
    expect(workspaceFile('lg-edit.txt')).toBe('edited');
  });

  it('takes one HumanResponse alone by the decide update; an accept of arguments that are not the call’s is refused, the run unchanged', async () => {
    const handle = await h.start({ agent: 'seeds', prompt: 'langgraph accept' });
    await waitForPending(handle, 1);
    const stale = { type: 'accept', args: { action: 'cancel_order', args: { orderId: '9999' } } };
    let refusal: unknown;
    await refusedUnchanged(handle, 'update', async () => (refusal = await py(handle.workflowId, 'update', stale)));
    expect(refusal).toMatchObject({ ok: false, type: 'DecisionRefusedError', code: 'args_hash_mismatch' });

    const accept = { type: 'accept', args: { action: 'cancel_order', args: { orderId: '1235' } } };
    expect(await py(handle.workflowId, 'update', accept)).toMatchObject({
      ok: true,
      result: { applied: [{ id: 'call-1', type: 'approve', argsHash: argsHash({ orderId: '1235' }) }] },
    });
    await finished(handle, 'accept done');
    expect(h.shop.prepare("SELECT status FROM orders WHERE id = '1235'").get()).toEqual({ status: 'canceled' });
  });
});

describe('a shape that matches none', () => {
  it('is refused by update and by signal, naming the accepted shapes, and leaves the run exactly as it was', async () => {
    const handle = await h.start({ agent: 'seeds', prompt: 'no shape' });
    await waitForPending(handle, 1);
    const unknown = { resume: { call_1: { approved: true } } };
    let refusal: unknown;
    await refusedUnchanged(handle, 'update', async () => (refusal = await py(handle.workflowId, 'update', unknown)));
    expect(refusal).toMatchObject({ ok: false, code: 'malformed', message: expect.stringContaining(ACCEPTED_SHAPES) });
    await refusedUnchanged(handle, 'signal', () => py(handle.workflowId, 'signal', unknown));
    const audited = (await handle.query(runStateQuery)).decisions.at(-1);
    expect(audited?.refusal).toMatchObject({ code: 'malformed', message: expect.stringContaining('Accepted shapes:') });
    // A LangGraph response of a type it does not have, by update.
    await refusedUnchanged(handle, 'update', () => py(handle.workflowId, 'update', { type: 'approve', args: null }));
    await handle.terminate('done with it');
  });
});

describe('interruptions (OpenAI Agents SDK style) and sub-agents', () => {
  it("names each call's agent, a sub-agent's calls the sub-agent's; LangChain resumes reach the sub-agent through the parent", async () => {
    const handle = await h.start({ agent: 'coordinator', prompt: 'coordinate seeds' });
    await waitForPending(handle, 2);
    const interruptions = await py(handle.workflowId, 'query', 'interruptions');
    expect(interruptions).toEqual({
      ok: true,
      result: [
        {
          type: 'tool_approval_item',
          agent: { name: 'coordinator' },
          rawItem: {
            type: 'function_call',
            callId: 'call-1',
            name: 'process_refund',
            arguments: expect.any(String),
            status: 'in_progress',
          },
        },
        {
          type: 'tool_approval_item',
          agent: { name: 'researcher' },
          rawItem: {
            type: 'function_call',
            callId: 'call-2/call-1',
            name: 'write_file',
            arguments: expect.any(String),
            status: 'in_progress',
          },
        },
      ],
    });
    const items = (interruptions as { result: { rawItem: { arguments: string } }[] }).result;
    expect(items.map((i) => JSON.parse(i.rawItem.arguments))).toEqual([
      { orderId: '1238', amount: 300 },
      { path: 'seeds.md', content: 'note' },
    ]);
    // The interrupt is the oldest batch: the coordinator's own call; then the researcher's.
    const first = await py(handle.workflowId, 'query', 'interrupt');
    expect(first).toMatchObject({ result: { action_requests: [{ id: 'call-1', name: 'process_refund' }] } });
    expect(await py(handle.workflowId, 'update', { decisions: [{ type: 'approve' }] })).toMatchObject({ ok: true });
    await waitForPending(handle, 1);
    expect(await py(handle.workflowId, 'query', 'interrupt')).toMatchObject({
      result: { action_requests: [{ id: 'call-2/call-1', name: 'write_file' }] },
    });
    const edit = { type: 'edit', edited_action: { name: 'write_file', args: { path: 'seeds.md', content: 'edited note' } } };
    expect(await py(handle.workflowId, 'update', { decisions: [edit] })).toMatchObject({ ok: true });
    await finished(handle, 'coordinated');
    expect(workspaceFile('seeds.md')).toBe('edited note');
  });
});

/** curl-style: the raw body as given (or none) and the query string, as a Spring-style approval client sends them. */
async function curl(method: string, url: string, body?: string) {
  const response = await fetch(`${api.url}${url}`, {
    method,
    headers: { authorization: 'Bearer alice-token-0123456789', ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function startForArc(prompt: string) {
  const handle = await h.start({ agent: 'seeds', prompt });
  const [pending] = await waitForPending(handle, 1);
  const id = encodeApprovalId({ workflowId: handle.workflowId, callId: pending!.id });
  await waitFor(async () => (await curl('GET', '/api/approvals?agent=seeds')).body.some((a: any) => a.id === id), 20_000, 'listed');
  return { handle, id };
}

describe('Arc Reactor approval REST (curl-style HTTP)', () => {
  it('lists items with sessionId and userPrompt; reject?reason= with no body reaches the model', async () => {
    const { handle, id } = await startForArc('arc reject query');
    const item = (await curl('GET', '/api/approvals?agent=seeds')).body.find((a: any) => a.id === id);
    expect(item).toMatchObject({ sessionId: handle.workflowId, userPrompt: 'arc reject query', toolName: 'cancel_order' });
    const reason = 'customer asked to keep it';
    const answer = await curl('POST', `/api/approvals/${id}/reject?reason=${encodeURIComponent(reason)}`);
    expect(answer).toMatchObject({ status: 200, body: { applied: [{ type: 'reject', approver: 'alice' }] } });
    await finished(handle, 'arc 1');
    expect(toolResultsHeard('arc reject query')).toEqual([rejectedMessage('cancel_order', reason, false)]);
  });

  it('refuses two different reasons, one in the query and one in the body, and takes the same one twice', async () => {
    const { handle, id } = await startForArc('arc reject both');
    const twice = await curl('POST', `/api/approvals/${id}/reject?reason=from-query`, '{"reason":"from the body"}');
    expect(twice).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('given twice') } },
    });
    // Refused before it reached the run: the call still waits, undecided.
    expect((await handle.query(runStateQuery)).pending).toHaveLength(1);
    const answer = await curl('POST', `/api/approvals/${id}/reject?reason=same%20reason`, '{"reason":"same reason"}');
    expect(answer.status).toBe(200);
    await finished(handle, 'arc 2');
    expect(toolResultsHeard('arc reject both')).toEqual([rejectedMessage('cancel_order', 'same reason', false)]);
    // A misspelled query parameter is refused, never silently dropped.
    expect((await curl('POST', `/api/approvals/${id}/reject?reasn=x`)).status).toBe(400);
  });

  it('approves with modifiedArguments (an edit), and approves with no body at all, or an empty one', async () => {
    const { handle, id } = await startForArc('arc approve modified');
    const answer = await curl('POST', `/api/approvals/${id}/approve`, '{"modifiedArguments":{"path":"arc.txt","content":"modified"}}');
    expect(answer).toMatchObject({ status: 200, body: { applied: [{ type: 'edit' }] } });
    await finished(handle, 'arc 3');
    expect(workspaceFile('arc.txt')).toBe('modified');

    const bare = await startForArc('arc approve bare');
    expect(await curl('POST', `/api/approvals/${bare.id}/approve`)).toMatchObject({
      status: 200,
      body: { applied: [{ type: 'approve' }] },
    });
    await finished(bare.handle, 'arc 4');
    expect(workspaceFile('arc-bare.txt')).toBe('as asked');

    // Labelled JSON but only a line break, as some HTTP clients send a POST without a body: no body too.
    const empty = await startForArc('arc approve empty');
    expect(await curl('POST', `/api/approvals/${empty.id}/approve`, '\r\n')).toMatchObject({
      status: 200,
      body: { applied: [{ type: 'approve' }] },
    });
    await finished(empty.handle, 'arc 5');
    expect(workspaceFile('arc-empty.txt')).toBe('as asked');
  });
});

describe('POST /api/runs/{id}/decisions (curl-style HTTP)', () => {
  it("takes LangGraph's responses; refuses who-claims and unknown shapes, the run unchanged", async () => {
    const handle = await h.start({ agent: 'seeds', prompt: 'http seed shapes' });
    await waitForPending(handle, 2);
    const url = `/api/runs/${handle.workflowId}/decisions`;
    await refusedUnchanged(handle, 'update', async () => {
      expect(await curl('POST', url, '{"approve": ["call-1"]}')).toMatchObject({
        status: 400,
        body: { error: { code: 'malformed', message: expect.stringContaining(ACCEPTED_SHAPES) } },
      });
      expect(await curl('POST', url, '{"decisions":[{"type":"approve"},{"type":"approve"}],"approver":"root"}')).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });
    });
    const answer = await curl('POST', url, '[{"type":"ignore","args":null},{"type":"accept","args":null}]');
    expect(answer).toMatchObject({
      status: 200,
      body: {
        applied: [
          { id: 'call-1', type: 'ignore', approver: 'alice' },
          { id: 'call-2', type: 'approve', approver: 'alice' },
        ],
      },
    });
    await finished(handle, 'http done');
    expect(toolResultsHeard('http seed shapes')).toEqual([ignoredMessage('write_file'), 'Wrote 1 bytes to http-2.txt.']);
  });
});
