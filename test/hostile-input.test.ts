/**
 * Hostile and merely unusual input against real runs: model replies, decisions by update, signal and HTTP, start
 * input and stray signals. For every input: the run never wedges (no workflow task keeps failing), stays viewable
 * (its queries answer, the HTTP API shows it) and decidable (it finishes once decided), and a refused input leaves
 * it exactly as it was (a refused signal adds only its audit entry).
 */
import { Client, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAgent } from '../src/agents/demo.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { jsonStringBytes } from '../src/bounds/truncate.js';
import { LIMITS } from '../src/contract/limits.js';
import { InvalidRunInputError } from '../src/errors.js';
import { CARRY_FROM_CALLER } from '../src/schemas/agent-workflow-input.js';
import { endSignal, messageSignal, pendingApprovalQuery, pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import type { Listening } from '../src/api/listen.js';
import type { RunState } from '../src/schemas/run-state.js';
import { childApprovalsSignal } from '../src/workflows/sub-agent-report.js';
import { foreignParentWorkflow } from './fixtures/foreign-parent-workflow.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { foreignWorker } from './helpers/foreign-worker.js';
import { decide, signalDecision, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { uniqueName } from './helpers/temporal.js';

const call = (id: string | undefined, name: string, args: unknown) => ({ ...(id !== undefined && { id }), name, arguments: args });
const raw = (id: string | undefined, name: string, rawArguments: string) => ({ ...(id !== undefined && { id }), name, rawArguments });
const MB = 1024 * 1024;
const big = (bytes: number) => JSON.stringify({ path: 'big.txt', content: 'x'.repeat(bytes) });
/** JSON nested `depth` deep, as text (too deep for JSON.stringify to build) and as a value a Temporal client can send. */
const deepText = (depth: number) => `${'{"down":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;
const deep = (depth: number): unknown => JSON.parse(deepText(depth));
/**
 * Order ids a tool quotes in the text approvers read: one whose quote ends, just past 4,000 UTF-16 units, in a surrogate
 * pair where the old cut fell, and one whose text is three times the bound in UTF-8.
 */
const LONG_ORDER_ID = `${'x'.repeat(3985)}\u{1F600}y`;
const HUGE_ORDER_ID = '\u{1F600}'.repeat(3000);
/** A start that names no one where it names people: a requester with a hidden character, approver entries padded. */
const NAMELESS_START = {
  agent: 'demo',
  prompt: 'never read',
  requestedBy: 'alice\u200b',
  approval: { tools: { write_file: { approvers: ['group: finance', 'user:bob'] } } },
  interrupt: { beforeTools: { approvers: ['finance '] } },
};
const TOKENS = { 'alice-hostile-token-012345': { approver: 'alice', groups: ['finance'] } };

const tally = { inputs: 0, wedged: 0, changedByRefusal: 0 };
let h: Harness;
let hitl: HitlClient;
let api: Listening;

beforeAll(async () => {
  h = await startHarness({
    script: {
      conversations: [
        {
          match: 'email ada',
          replies: [
            { toolCalls: [call('m1', 'send_email', { to: 'ada@example.com', subject: 'About your refund', body: 'On its way.' })] },
            { content: 'emailed' },
          ],
        },
        {
          match: 'refund then attack',
          replies: [{ toolCalls: [call('call_refund', 'process_refund', { orderId: '1234', amount: 75000 })] }, { content: 'refund done' }],
        },
        {
          match: 'two huge calls',
          replies: [
            { toolCalls: [raw('h1', 'write_file', big(1.5 * MB))] },
            { toolCalls: [raw('h2', 'write_file', big(1.5 * MB))] },
            { content: 'huge done' },
          ],
        },
        {
          match: 'too many calls',
          replies: [
            {
              toolCalls: Array.from({ length: 2500 }, (_, i) => call(`many${i}`, 'read_data', { table: 'orders', where: { id: '1234' } })),
            },
            { content: 'many done' },
          ],
        },
        { match: 'an enormous answer', replies: [{ content: 'y'.repeat(2.5 * MB) }] },
        {
          match: 'answer in parts',
          replies: [
            {
              rawContent: [
                { type: 'text', text: 'in ' },
                { type: 'text', text: 'parts' },
              ],
            },
          ],
        },
        // cancel_order describes itself, quoting an order id it does not know (src/tools/implementations/shop-tools.ts).
        { match: 'cancel a long order id', replies: [{ toolCalls: [call('c1', 'cancel_order', { orderId: LONG_ORDER_ID })] }] },
        { match: 'cancel a huge order id', replies: [{ toolCalls: [call('c2', 'cancel_order', { orderId: HUGE_ORDER_ID })] }] },
        {
          match: 'duplicate ids',
          replies: [
            {
              toolCalls: [
                call('dup', 'write_file', { path: 'd1.txt', content: '1' }),
                call('dup', 'write_file', { path: 'd2.txt', content: '2' }),
              ],
            },
            { content: 'dups done' },
          ],
        },
        {
          match: 'reused ids',
          replies: [
            { toolCalls: [call('same', 'write_file', { path: 'r1.txt', content: '1' })] },
            { toolCalls: [call('same', 'write_file', { path: 'r2.txt', content: '2' })] },
            { content: 'reuse done' },
          ],
        },
        {
          match: 'odd ids',
          replies: [
            {
              toolCalls: [
                call('', 'write_file', { path: 'o1.txt', content: '1' }),
                call('x'.repeat(500), 'write_file', { path: 'o2.txt', content: '2' }),
                call('has spaces/and slashes', 'write_file', { path: 'o3.txt', content: '3' }),
              ],
            },
            { content: 'odd done' },
          ],
        },
        {
          match: 'wide arguments',
          replies: [
            {
              toolCalls: [0, 1, 2].map((i) =>
                raw(`w${i}`, 'write_file', JSON.stringify({ path: `w${i}.txt`, content: String(i).repeat(60_000) })),
              ),
            },
            { content: 'wide done' },
          ],
        },
        {
          match: 'backtracking pattern',
          replies: [
            { toolCalls: [call('b1', 'send_email', { to: 'ada@example.com', subject: 'Hello', body: `${'a'.repeat(40)}b` })] },
            { content: 'backtracking done' },
          ],
        },
        {
          // A soft hyphen in the subject: people read "Refund", the agent's `matches: refund` condition does not.
          match: 'a hidden hyphen',
          replies: [
            { toolCalls: [call('h1', 'send_email', { to: 'ada@example.com', subject: 'Re\u00adfund \u202eabc', body: 'Done.' })] },
            { content: 'hidden hyphen done' },
          ],
        },
        {
          // Full-width letters: people read "Refund", the condition read them as written before patch set 32.
          match: 'a full-width refund',
          replies: [
            {
              toolCalls: [call('f1', 'send_email', { to: 'ada@example.com', subject: 'Ｒｅｆｕｎｄ\u3000for order 1234', body: 'Done.' })],
            },
            { content: 'full-width done' },
          ],
        },
        {
          match: 'undecodable',
          replies: [{ toolCalls: [call('u1', 'process_refund', { orderId: '1234', amount: 75000 })] }, { content: 'undecodable done' }],
        },
        {
          match: 'more than one argument',
          replies: [{ toolCalls: [call('x1', 'process_refund', { orderId: '1234', amount: 75000 })] }, { content: 'arguments done' }],
        },
        { match: 'a session sent more', replies: [{ content: 'session answered' }] },
        {
          match: 'a junk memo',
          replies: [{ toolCalls: [call('m1', 'write_file', { path: 'memo.txt', content: 'm' })] }, { content: 'memo done' }],
        },
        {
          match: 'stray signals',
          replies: [{ toolCalls: [call('s1', 'write_file', { path: 's.txt', content: 's' })] }, { content: 'strays done' }],
        },
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
  api = await startTestApi(h, { tokens: TOKENS, agents: { demo: demoAgent } });
});
afterAll(async () => {
  console.log(`hostile: ${tally.inputs} inputs tried, ${tally.wedged} runs wedged, ${tally.changedByRefusal} refusals that changed state`);
  await api?.close();
  await h?.close();
});

const http = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}${path}`, { method, headers: { authorization: `Bearer ${Object.keys(TOKENS)[0]}`, ...headers }, body });

/** Not wedged: no workflow task is failing, and every view answers (queries, the client, HTTP). */
async function assertViewable(handle: WorkflowHandle): Promise<RunState> {
  // Failing, not merely retried: a task that timed out once on a loaded machine is retried and goes through.
  const problem = await hitl.diagnose(handle.workflowId);
  if (problem?.kind === 'workflow_task_failing') tally.wedged++;
  expect(problem?.failure, 'a workflow task is failing').toBeUndefined();
  const state = await handle.query(runStateQuery);
  expect(Array.isArray(await handle.query(pendingApprovalsQuery))).toBe(true);
  expect((await hitl.getRun(handle.workflowId)).problem).toBeUndefined();
  expect((await http('GET', `/api/runs/${encodeURIComponent(handle.workflowId)}`)).status).toBe(200);
  return state;
}

/**
 * Sends input that must be refused, and checks the run is exactly as it was (a signal: plus one audit entry, which
 * its watchers are told of as one event on its stream).
 */
async function refusedUnchanged(handle: WorkflowHandle, via: 'update' | 'signal', send: () => Promise<unknown>): Promise<void> {
  tally.inputs++;
  const before = await handle.query(runStateQuery);
  if (via === 'update') await expect(send()).rejects.toBeDefined();
  else {
    await send();
    await waitFor(
      async () => (await handle.query(runStateQuery)).decisions.length > before.decisions.length,
      60_000,
      'the refusal audited',
    );
  }
  const after = await assertViewable(handle);
  const { decisions: _b, streamOffset: toldBefore, ...restBefore } = before;
  const { decisions: _a, streamOffset: toldAfter, ...restAfter } = after;
  const newEntries = after.decisions.slice(before.decisions.length);
  const unchanged =
    JSON.stringify(restAfter) === JSON.stringify(restBefore) &&
    newEntries.length === (via === 'signal' ? 1 : 0) &&
    toldAfter === toldBefore! + newEntries.length &&
    newEntries.every((e) => e.outcome === 'refused');
  if (!unchanged) tally.changedByRefusal++;
  expect(unchanged, 'a refused input changed the run').toBe(true);
}

async function finishes(handle: WorkflowHandle, output: string): Promise<void> {
  for (;;) {
    const state = await assertViewable(handle);
    if (state.status === 'Completed') break;
    if (state.pending.length)
      await decide(handle, {
        decisions: state.pending.map((p) => ({ id: p.id, type: 'approve' as const })),
        approver: 'alice',
        groups: ['finance'],
      });
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await handle.result()).toMatchObject({ status: 'Completed', output });
}

describe('zod in the workflow sandbox', () => {
  it('a demo email to Ada validates (z.email in the sandbox) and completes', async () => {
    tally.inputs++;
    const handle = await h.start({ agent: 'demo', prompt: 'Please email ada about her refund' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ toolName: 'send_email', args: { to: 'ada@example.com' } });
    await finishes(handle, 'emailed');
  });
});

describe('decisions', () => {
  it('the signal that wedged runs for good (an edit into send_email) is refused, audited, and the run goes on', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A refund then attack' });
    const [refund] = await waitForPending(handle, 1);
    const edit = { id: refund!.id, type: 'edit', name: 'send_email', args: { to: 'a@b.co', subject: 'hi', body: 'x' } };
    // mallory is not in finance: the edit is refused on authority, through zod's email check, without a wedge.
    await refusedUnchanged(handle, 'signal', () => signalDecision(handle, { decisions: [edit], approver: 'mallory' }));
    await refusedUnchanged(handle, 'update', () => decide(handle, { decisions: [edit as never], approver: 'mallory' }));
    // Nested thousands deep, by update, signal and HTTP.
    // As deep as a Temporal client will encode (its JSON encoder has a recursion limit of its own).
    const nested = { decisions: [{ id: refund!.id, type: 'edit', args: { orderId: deep(1000) } }], approver: 'alice', groups: ['finance'] };
    await refusedUnchanged(handle, 'update', () => decide(handle, nested as never));
    await refusedUnchanged(handle, 'signal', () => signalDecision(handle, nested));
    tally.inputs++;
    const id = encodeApprovalId({ workflowId: handle.workflowId, callId: refund!.id });
    const response = await http('POST', `/api/approvals/${id}/edit`, `{"arguments":{"orderId":${deepText(5000)}}}`, {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    // Oversized, junk and wrongly typed inputs.
    for (const junk of [
      {
        decisions: [{ id: refund!.id, type: 'edit', args: { orderId: '1234', amount: 1, note: 'n'.repeat(LIMITS.argumentsBytes + 10) } }],
        approver: 'alice',
        groups: ['finance'],
      },
      { decisions: Array.from({ length: LIMITS.decisionsPerInput + 1 }, () => ({ type: 'reject' })) },
      { decisions: [{ id: 7, type: 'approve' }] },
      // An argument the tool does not take: refused, never dropped before the tool runs.
      {
        decisions: [{ id: refund!.id, type: 'edit', args: { orderId: '1234', amount: 1, currency: 'EUR' } }],
        approver: 'alice',
        groups: ['finance'],
      },
      // A token this run cannot check (it has no signer): refused, never taken as if the token were not there.
      {
        decisions: [{ id: refund!.id, type: 'approve', token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJtIn0.' }],
        approver: 'alice',
        groups: ['finance'],
      },
      { decisions: [{ id: refund!.id, type: 'approve', approver: 'a'.repeat(1000) }] },
      'not even an object',
      null,
    ]) {
      await refusedUnchanged(handle, 'signal', () => signalDecision(handle, junk));
      await refusedUnchanged(handle, 'update', () => decide(handle, junk as never));
    }
    await finishes(handle, 'refund done');
  });
});

/** Payloads no Temporal SDK sends by default, each sent as the whole input of a signal, an update or a start. */
const text = (value: string) => new TextEncoder().encode(value);
const UNDECODABLE: Record<string, Payload> = {
  'an encoding the worker does not know': { metadata: { encoding: text('json/protobuf') }, data: text('\n\u0003abc') },
  'no encoding': { metadata: {}, data: text('{"decisions":[]}') },
  'JSON that does not parse': { metadata: { encoding: text('json/plain') }, data: text('{"decisions": [') },
  'a ciphertext, to a worker with no codec': { metadata: { encoding: text('binary/encrypted') }, data: text('sealed') },
  // What a Python client sends for bytes, or `temporal workflow update execute --input-meta encoding=binary/plain`.
  'bytes (binary/plain)': { metadata: { encoding: text('binary/plain') }, data: text('{"decisions":[]}') },
};

/** A client whose every payload is `payload`, whatever it was asked to send: a sender in another language, or none. */
const sendingOnly = (payload: Payload) =>
  new Client({
    connection: h.temporal.client.connection,
    namespace: h.temporal.namespace,
    dataConverter: { payloadCodecs: [{ encode: async (ps) => ps.map(() => payload), decode: async (ps) => ps }] },
  });

describe('payloads the worker cannot decode', () => {
  it('a decision, message or report in one is refused, by signal and by update, and the run goes on', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'An undecodable refund' });
    await waitForPending(handle, 1);
    for (const [what, payload] of Object.entries(UNDECODABLE)) {
      const forged = sendingOnly(payload).workflow.getHandle(handle.workflowId);
      // These used to fail every workflow task of the run from then on: the SDK decodes a signal before our handler.
      await refusedUnchanged(handle, 'signal', () => forged.signal('decision', {}));
      const audited = (await handle.query(runStateQuery)).decisions.at(-1);
      expect(audited?.refusal, what).toMatchObject({ code: 'malformed', message: expect.stringContaining('could not be decoded') });
      tally.inputs++;
      await expect(forged.executeUpdate('decide', { args: [{}] }), what).rejects.toMatchObject({
        cause: { type: 'DecisionRefusedError', message: expect.stringContaining('could not be decoded') },
      });
    }
    // Every other signal a run takes, once each: nothing is recorded, and nothing fails.
    const before = await handle.query(runStateQuery);
    const forged = sendingOnly(UNDECODABLE['an encoding the worker does not know']!).workflow.getHandle(handle.workflowId);
    for (const name of ['message', 'end', 'hitl.childApprovals', 'hitl.listingsDue', '__temporal_workflow_stream_publish']) {
      tally.inputs++;
      await forged.signal(name, {});
    }
    await decide(handle, { decisions: [] }).catch(() => undefined);
    const after = await assertViewable(handle);
    if (JSON.stringify(after) !== JSON.stringify(before)) tally.changedByRefusal++;
    expect(after).toEqual(before);
    await finishes(handle, 'undecodable done');
  });

  it('a run started with one fails at once with a typed error, instead of retrying its first task for good', async () => {
    tally.inputs++;
    const started = await sendingOnly(UNDECODABLE['JSON that does not parse']!).workflow.start('agentWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `undecodable-start-${Date.now()}`,
      args: [{ agent: 'demo', prompt: 'never read' }],
    });
    const failed = await started.result().catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(WorkflowFailedError);
    expect((failed as WorkflowFailedError).cause).toMatchObject({
      type: 'InvalidRunInputError',
      message: expect.stringContaining('could not be decoded'),
    });
    const history = await h.temporal.client.workflow.getHandle(started.workflowId).fetchHistory();
    expect(history.events!.filter((e) => e.workflowTaskFailedEventAttributes)).toEqual([]);
  });
});

describe('numbers JSON cannot hold', () => {
  it('a HumanResponse accept whose arguments hold 1e400 (Infinity once parsed) is refused as malformed, by signal, update and HTTP', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A refund then attack' });
    const [refund] = await waitForPending(handle, 1);
    const body = `{"id": "${refund!.id}", "type": "accept", "args": {"action": "process_refund", "args": {"orderId": "1234", "amount": 1e400}}}`;
    const message = 'Malformed decision input: args.args.amount is a number JSON cannot hold (one like 1e400 is read as Infinity).';
    const forged = sendingOnly({ metadata: { encoding: text('json/plain') }, data: text(body) }).workflow.getHandle(handle.workflowId);
    await refusedUnchanged(handle, 'signal', () => forged.signal('decision', {}));
    expect((await handle.query(runStateQuery)).decisions.at(-1)?.refusal).toMatchObject({ code: 'malformed', message });
    await refusedUnchanged(handle, 'update', async () => {
      await expect(forged.executeUpdate('decide', { args: [{}] })).rejects.toMatchObject({
        cause: { type: 'DecisionRefusedError', message },
      });
      throw new Error('refused');
    });
    // Over HTTP every body is refused before it reaches a run: the approve route's `modifiedArguments` and a start's
    // `context` would otherwise have gone on with null where 1e400 was written (JSON has no Infinity).
    const refusedBody = (at: string) => ({
      status: 400,
      body: {
        error: {
          code: 'invalid_request',
          message: `The body holds a number JSON cannot hold (at ${at}): one like 1e400 is read as Infinity; nothing was taken.`,
        },
      },
    });
    const json = { 'content-type': 'application/json' };
    const sent = [
      [`/api/runs/${encodeURIComponent(handle.workflowId)}/decisions`, body, 'args.args.amount'],
      [
        `/api/approvals/${encodeApprovalId({ workflowId: handle.workflowId, callId: refund!.id })}/approve`,
        '{"modifiedArguments": {"orderId": "1234", "amount": -1e999}}',
        'modifiedArguments.amount',
      ],
      ['/api/runs', '{"agent": "demo", "prompt": "never started", "context": {"limit": 1e400}}', 'context.limit'],
    ] as const;
    for (const [path, sentBody, at] of sent) {
      tally.inputs++;
      const response = await http('POST', path, sentBody, json);
      expect({ status: response.status, body: await response.json() }).toEqual(refusedBody(at));
    }
    expect((await waitForPending(handle, 1)).map((p) => [p.id, p.args])).toEqual([[refund!.id, refund!.args]]);
    await finishes(handle, 'refund done');
  });
});

describe("more than one argument, nesting past the stack, over Temporal's limits, junk query options", () => {
  it('a decision with a second argument is refused whole, by signal and by update; so are one nested 700,000 deep and one of 3 MB', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Send more than one argument' });
    const [refund] = await waitForPending(handle, 1);
    const approve = { decisions: [{ id: refund!.id, type: 'approve' }], approver: 'alice', groups: ['finance'] };
    const reject = { decisions: [{ id: refund!.id, type: 'reject', message: 'no' }], approver: 'alice', groups: ['finance'] };
    // Taking the first and dropping the second would approve what its sender also meant to reject.
    await refusedUnchanged(handle, 'signal', () => handle.signal('decision', approve, reject));
    expect((await handle.query(runStateQuery)).decisions.at(-1)?.refusal).toMatchObject({
      code: 'malformed',
      message: expect.stringContaining('1 more argument came with it'),
    });
    await refusedUnchanged(handle, 'update', async () => {
      await expect(handle.executeUpdate('decide', { args: [approve, reject] })).rejects.toMatchObject({
        cause: { type: 'DecisionRefusedError', message: expect.stringContaining('is one argument') },
      });
      throw new Error('refused');
    });
    // Nested deeper than JSON.stringify can go, as raw JSON no Temporal client would build: refused as malformed,
    // not lost to an internal error while it was audited.
    const deepArrays = sendingOnly({
      metadata: { encoding: text('json/plain') },
      data: text(`${'['.repeat(700_000)}${']'.repeat(700_000)}`),
    }).workflow.getHandle(handle.workflowId);
    await refusedUnchanged(handle, 'signal', () => deepArrays.signal('decision', {}));
    expect((await handle.query(runStateQuery)).decisions.at(-1)?.refusal?.code).toBe('malformed');
    // 3 MB: the run refuses it for its size, and our client with the same words before it sends a byte (so even for a
    // run that does not exist, which it would otherwise have asked about first).
    const huge = { decisions: [{ id: refund!.id, type: 'edit' as const, args: { orderId: 'x'.repeat(3 * MB) } }] };
    const tooLarge = { code: 'too_large', message: expect.stringMatching(/^The decision input is \d+ bytes; the limit is 262144\.$/) };
    await refusedUnchanged(handle, 'update', () =>
      decide(handle, huge as never).catch((err) => {
        expect(err.cause).toMatchObject({ type: 'DecisionRefusedError', message: tooLarge.message });
        throw err;
      }),
    );
    await expect(hitl.decide('no-such-run', huge)).rejects.toMatchObject(tooLarge);
    // Junk options of the runState query get words, not zod's raw list of issues.
    for (const options of [{ messagesFrom: 'all' }, { messageFrom: 3 }]) {
      tally.inputs++;
      const junk = await handle.query(runStateQuery, options as never).catch((err: Error) => err);
      expect(junk, JSON.stringify(options)).toBeInstanceOf(Error);
      expect((junk as Error).message).toMatch(/^runState options: /);
      expect((junk as Error).message).not.toContain('"code"');
    }
    await finishes(handle, 'arguments done');
  });

  it('a message or end with a second argument is refused whole; a start with one fails', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A session sent more', session: {} });
    await waitFor(async () => (await handle.query(runStateQuery)).status === 'AwaitingMessage', 60_000, 'the session waits');
    const before = await handle.query(runStateQuery);
    for (const name of ['message', 'end']) {
      tally.inputs++;
      await expect(handle.executeUpdate(name, { args: [{ content: 'first' }, { content: 'second' }] }), name).rejects.toMatchObject({
        cause: { type: 'InvalidMessageError', message: expect.stringContaining('is one argument') },
      });
      tally.inputs++;
      await handle.signal(name, { content: 'first' }, { content: 'second' });
    }
    // 1.2 MB of keys a message does not take: zod lists each, and the rejection quoted them in its message and again in
    // its stack, past the server's 2 MB, which failed the run instead of refusing the update. Now cut to 16 KiB.
    const junk = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`unknown_key_${i}`, 0]));
    for (const name of ['message', 'end']) {
      tally.inputs++;
      const refused = (await handle.executeUpdate(name, { args: [{ content: 'x', ...junk }] }).catch((err: unknown) => err)) as {
        cause: Error;
      };
      expect(refused.cause, name).toMatchObject({
        type: 'InvalidMessageError',
        message: expect.stringMatching(/^Not an? .* a session takes:/),
      });
      expect(Buffer.byteLength(refused.cause.message)).toBeLessThanOrEqual(16 * 1024);
    }
    await decide(handle, { decisions: [] }).catch(() => undefined);
    const after = await assertViewable(handle);
    const { streamOffset: _b, ...restBefore } = before;
    const { streamOffset: _a, ...restAfter } = after;
    expect(restAfter).toEqual(restBefore);
    await handle.executeUpdate('end', { args: [{}] });
    expect(await handle.result()).toMatchObject({ status: 'Ended' });

    tally.inputs++;
    const started = await h.temporal.client.workflow.start('agentWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `two-argument-start-${Date.now()}`,
      args: [{ agent: 'demo', prompt: 'never read' }, { approval: { tools: { write_file: true } } }],
    });
    const failed = await started.result().catch((err: unknown) => err);
    expect((failed as WorkflowFailedError).cause).toMatchObject({
      type: 'InvalidRunInputError',
      message: expect.stringContaining('The start input is one argument'),
    });
  });
});

describe('__proto__ keys', () => {
  it('a decision, a start or an HTTP body holding one is refused whole, never read without it', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Send more than one argument, by proto' });
    const [refund] = await waitForPending(handle, 1);
    // As JSON holds it: an own key, which a copy key by key (a zod record) would turn into the args' prototype, so the
    // amount it holds would be read as sent while the key itself vanished.
    const edit = JSON.parse(
      `{"decisions": [{"id": "${refund!.id}", "type": "edit", "args": {"orderId": "1234", "__proto__": {"amount": 1}}}], "approver": "alice", "groups": ["finance"]}`,
    );
    const refusal = 'The decision input has a key named __proto__ (at decisions[0].args.__proto__)';
    await refusedUnchanged(handle, 'update', () =>
      decide(handle, edit).catch((err) => {
        expect(err.cause).toMatchObject({ type: 'DecisionRefusedError', message: expect.stringContaining(refusal) });
        throw err;
      }),
    );
    await refusedUnchanged(handle, 'signal', () => handle.signal('decision', edit));
    expect((await handle.query(runStateQuery)).decisions.at(-1)?.refusal).toMatchObject({
      code: 'malformed',
      message: expect.stringContaining(refusal),
    });
    await decide(handle, { decisions: [{ id: refund!.id, type: 'reject', message: 'no' }], approver: 'alice', groups: ['finance'] });
    await finishes(handle, 'arguments done');

    tally.inputs++;
    const started = await h.start(JSON.parse('{"agent": "demo", "prompt": "never read", "context": {"__proto__": {"tier": "gold"}}}'));
    const failed = await started.result().catch((err: unknown) => err);
    expect((failed as WorkflowFailedError).cause).toMatchObject({
      type: 'InvalidRunInputError',
      message: expect.stringContaining('The start input has a key named __proto__ (at context.__proto__)'),
    });
    // From the CLI, as the README writes a context: refused before anything is sent (it started a run without it).
    tally.inputs += 2;
    for (const context of ['{"__proto__": {"tier": "gold"}}', '{"account": {"__proto__": {"tier": "gold"}}}']) {
      const cli = await runHitl(h, ['start', '--agent', 'demo', '--context', context, 'never started']);
      expect([cli.code, cli.stderr]).toEqual([2, expect.stringContaining('The start input has a key named __proto__ (at context.')]);
    }
    tally.inputs++;
    const viaHttp = await http('POST', '/api/runs', '{"agent": "demo", "prompt": "x", "context": {"__proto__": {}}}', {
      'content-type': 'application/json',
    });
    expect(viaHttp.status).toBe(400);
    expect(await viaHttp.json()).toMatchObject({ error: { code: 'invalid_request', message: expect.stringContaining('__proto__') } });
  });
});

describe('keys named twice', () => {
  it('an HTTP body that names a key twice in one object is refused whole: a reader that kept the first would disagree', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Send more than one argument, named twice' });
    const [refund] = await waitForPending(handle, 1);
    // JSON.parse keeps the last `type`: a proxy or log that kept the first saw a reject.
    const body = `{"decisions": [{"id": "${refund!.id}", "type": "reject", "message": "no", "type": "approve"}]}`;
    await refusedUnchanged(handle, 'update', async () => {
      const response = await http('POST', `/api/runs/${handle.workflowId}/decisions`, body, { 'content-type': 'application/json' });
      expect([response.status, await response.json()]).toEqual([
        400,
        {
          error: {
            code: 'invalid_request',
            message:
              'The body names the key "type" twice in one object (in decisions[0]), which JSON readers do not all read the same way; nothing was taken.',
          },
        },
      ]);
      throw new Error('refused');
    });
    // Escaped, it is the same key to JSON.parse, and refused the same way, also where no route reads it.
    tally.inputs++;
    const escaped = await http('POST', '/api/runs', '{"agent": "demo", "prompt": "x", "\\u0070rompt": "y"}', {
      'content-type': 'application/json',
    });
    expect(escaped.status).toBe(400);
    expect(await escaped.json()).toMatchObject({ error: { message: expect.stringContaining('"prompt" twice in one object,') } });
    await decide(handle, { decisions: [{ id: refund!.id, type: 'reject', message: 'no' }], approver: 'alice', groups: ['finance'] });
    await finishes(handle, 'arguments done');
  });
});

describe('policy patterns', () => {
  it("a pattern that backtracks for ever in JavaScript is decided at once against the model's arguments", async () => {
    tally.inputs++;
    // A run's own policy may gate more (the agent's rule, or more); this `when` used to run JavaScript's engine on 41
    // characters, for longer than the SDK's deadlock detector allows, which stopped the worker process at every retry.
    const agentsRule = { arg: 'subject', op: 'matches', value: 'refund', flags: 'i' } as const;
    const handle = await h.start({
      agent: 'demo',
      prompt: 'A backtracking pattern',
      approval: { tools: { send_email: { when: { any: [agentsRule, { arg: 'body', op: 'matches', value: '^(a+)+$' }] } } } },
    });
    await finishes(handle, 'backtracking done');
    const state = await handle.query(runStateQuery);
    expect(state.messages.find((m) => m.role === 'tool')?.content).toContain('ada@example.com');
  });
});

describe('hidden characters against a gate', () => {
  it('a condition that did not hold over arguments holding one lets people judge the call, who see it shown', async () => {
    tally.inputs++;
    const handle = await h.start({ agent: 'demo', prompt: 'a hidden hyphen' });
    const [email] = await waitForPending(handle, 1);
    expect(email).toMatchObject({
      toolName: 'send_email',
      args: { subject: 'Re\u00adfund \u202eabc' },
      rule: 'tools.send_email.when: subject matches "refund" did not hold, but "subject" holds a hidden character',
    });
    const shown = await runHitl(h, ['pending', handle.workflowId]);
    expect(shown.stdout).toContain('Re\\u00adfund \\u202eabc');
    await decide(handle, { decisions: [{ id: email!.id, type: 'reject', message: 'not like that' }], approver: 'sam' });
    await finishes(handle, 'hidden hyphen done');
  });

  it('a condition that holds once full-width letters and other spaces read as ASCII gates the call (patch set 32)', async () => {
    tally.inputs++;
    const handle = await h.start({ agent: 'demo', prompt: 'a full-width refund' });
    const [email] = await waitForPending(handle, 1);
    expect(email).toMatchObject({
      toolName: 'send_email',
      args: { subject: 'Ｒｅｆｕｎｄ\u3000for order 1234' },
      rule: 'tools.send_email.when: subject matches "refund", with full-width letters and other spaces read as ASCII',
    });
    await assertViewable(handle);
    await decide(handle, { decisions: [{ id: email!.id, type: 'reject', message: 'not like that' }], approver: 'sam' });
    await finishes(handle, 'full-width done');
  });
});

describe('the text a tool writes for approvers', () => {
  it('is kept whole under the bound, and cut with its prefix to it past that, never inside a character', async () => {
    tally.inputs += 2;
    const described = async (prompt: string) => {
      const handle = await h.start({ agent: 'demo', prompt });
      const [pending] = await waitForPending(handle, 1);
      await assertViewable(handle);
      await handle.terminate('done looking');
      return pending!.description;
    };
    const prefix = 'Tool execution requires approval: ';
    // 4,064 bytes with its prefix (as JSON holds it): whole. It was cut inside the emoji's surrogate pair, with no marker.
    const long = await described('Please cancel a long order id');
    expect(long).toBe(`${prefix}Cancel order ${JSON.stringify(LONG_ORDER_ID)}, which does not exist.`);
    const huge = await described('Please cancel a huge order id');
    expect(jsonStringBytes(huge)).toBeLessThanOrEqual(LIMITS.descriptionBytes);
    expect(jsonStringBytes(huge)).toBeGreaterThan(LIMITS.descriptionBytes - 100);
    expect(huge.startsWith(`${prefix}Cancel order "\u{1F600}`)).toBe(true);
    // Its marker counts what was cut of the whole text, not of a text cut once already.
    const [kept, dropped] = huge.split(/…\[(\d+) more bytes cut: over the size limit\]$/);
    const whole = `${prefix}Cancel order ${JSON.stringify(HUGE_ORDER_ID)}, which does not exist.`;
    expect(jsonStringBytes(kept!) + Number(dropped)).toBe(jsonStringBytes(whole));
    // No half of a surrogate pair anywhere (a lone one is \p{Cs} to a Unicode pattern).
    for (const text of [long, huge]) expect(text).not.toMatch(/\p{Cs}/u);
  });
});

describe('model replies', () => {
  it('two 1.5 MB calls in a row are cut and told to the model; the run finishes and stays small', async () => {
    tally.inputs += 2;
    const handle = await h.start({ agent: 'demo', prompt: 'Make two huge calls' });
    await finishes(handle, 'huge done');
    const state = await handle.query(runStateQuery);
    const tools = state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toHaveLength(2);
    for (const text of tools) expect(text).toMatch(/over the limit of 65536 bytes per call; the call did not run/);
    expect((await handle.describe()).historySize).toBeLessThan(2 * MB);
  });

  it('2,500 calls in one reply: the first 32 run and the model is told about the rest', async () => {
    tally.inputs++;
    const handle = await h.start({ agent: 'demo', prompt: 'Make too many calls' });
    await finishes(handle, 'many done');
    const state = await handle.query(runStateQuery);
    const tools = state.messages.filter((m) => m.role === 'tool');
    expect(tools).toHaveLength(LIMITS.toolCallsPerReply);
    expect(tools[0]!.content).toContain('asked for 2468 more tool call(s) than the limit of 32');
  });

  it('an answer over 2 MB is cut with a marker; an answer in content parts becomes text', async () => {
    tally.inputs += 2;
    const huge = await h.start({ agent: 'demo', prompt: 'Give an enormous answer' });
    const result = await huge.result();
    expect(result.status).toBe('Completed');
    expect(result.output.length).toBeLessThanOrEqual(LIMITS.replyTextBytes);
    expect(result.output).toMatch(/more bytes cut: over the size limit\]$/);
    await assertViewable(huge);
    const parts = await h.start({ agent: 'demo', prompt: 'Please answer in parts' });
    expect(await parts.result()).toMatchObject({ status: 'Completed', output: 'in parts' });
  });

  it('duplicate, reused, empty, long and odd model ids: every call is its own, decidable, and answered', async () => {
    tally.inputs += 3;
    const dups = await h.start({ agent: 'demo', prompt: 'Use duplicate ids' });
    expect((await waitForPending(dups, 2)).map((p) => p.id)).toEqual(['call-1', 'call-2']);
    await decide(dups, { decisions: [{ id: 'call-2', type: 'reject' }] });
    await decide(dups, { decisions: [{ id: 'call-1', type: 'approve' }] });
    await finishes(dups, 'dups done');
    const sent = (await dups.query(runStateQuery)).messages.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, m.content]] : []));
    expect(sent).toEqual([
      ['dup', 'Wrote 1 bytes to d1.txt.'],
      ['call-2', 'Rejected by a human reviewer; write_file did not run.'],
    ]);

    const reused = await h.start({ agent: 'demo', prompt: 'Use reused ids' });
    await finishes(reused, 'reuse done');
    const reusedTools = (await reused.query(runStateQuery)).messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(reusedTools).toEqual(['Wrote 1 bytes to r1.txt.', 'Wrote 1 bytes to r2.txt.']);

    const odd = await h.start({ agent: 'demo', prompt: 'Use odd ids' });
    const pending = await waitForPending(odd, 3);
    for (const p of pending) {
      const response = await http(
        'POST',
        `/api/approvals/${encodeApprovalId({ workflowId: odd.workflowId, callId: p.id })}/approve`,
        '{}',
        { 'content-type': 'application/json' },
      );
      expect(response.status).toBe(200);
    }
    await finishes(odd, 'odd done');
  });

  it('large pending arguments: lists cut them, one call shows them whole, nothing disappears', async () => {
    tally.inputs++;
    const handle = await h.start({ agent: 'demo', prompt: 'Use wide arguments' });
    const listed = await waitForPending(handle, 3);
    expect(listed.every((p) => p.argsTruncated)).toBe(true);
    const whole = await handle.query(pendingApprovalQuery, listed[0]!.id);
    expect(String(whole?.args.content)).toHaveLength(60_000);
    const approvals = (await (await http('GET', '/api/approvals?agent=demo')).json()) as { workflowId: string }[];
    expect(approvals.filter((a) => a.workflowId === handle.workflowId)).toHaveLength(3);
    await finishes(handle, 'wide done');
  });
});

describe('start input and stray signals', () => {
  it('refuses an unknown agent, a NUL in a filter and a body nested too deep with 400; takes curl -d JSON', async () => {
    tally.inputs += 8;
    expect(
      (await http('POST', '/api/runs', JSON.stringify({ agent: 'nope', prompt: 'x' }), { 'content-type': 'application/json' })).status,
    ).toBe(400);
    expect((await http('GET', '/api/approvals?agent=demo%00')).status).toBe(400);
    // At once: Temporal's list query refuses a NUL only after 20 s of retries, which answered 500.
    const started = Date.now();
    expect((await http('GET', '/api/approvals?workflowId=%00')).status).toBe(400);
    expect(Date.now() - started).toBeLessThan(5000);
    // A decision route refuses what it would ignore: an approval that also asks, in its query, to reject.
    const id = encodeApprovalId({ workflowId: 'any-run', callId: 'call-1' });
    expect((await http('POST', `/api/approvals/${id}/approve?reason=please-reject`)).status).toBe(400);
    // Not JSON, as `curl -d` sends it (labelled a form): 400 with the reason, as with a JSON label, not 415.
    for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
      const notJson = await http('POST', '/api/runs', '{bad', { 'content-type': type });
      expect([notJson.status, ((await notJson.json()) as { error: { message: string } }).error.message]).toEqual([
        400,
        'The body is not valid JSON.',
      ]);
    }
    expect(
      (await http('POST', '/api/runs', `{"agent":"demo","prompt":"x","context":${deepText(5000)}}`, { 'content-type': 'application/json' }))
        .status,
    ).toBe(400);
    const asCurlSendsIt = await http('POST', '/api/runs', JSON.stringify({ agent: 'demo', prompt: 'Give an enormous answer, from curl' }), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(asCurlSendsIt.status).toBe(201);
  });

  it('fails a run started with a key it does not take, naming it, instead of running without it', async () => {
    tally.inputs++;
    const misspelled = await h.start({ agent: 'demo', prompt: 'never read', aproval: { tools: { write_file: true } } } as never);
    const failed = await misspelled.result().catch((err: unknown) => err);
    expect((failed as WorkflowFailedError).cause).toMatchObject({
      type: 'InvalidRunInputError',
      message: expect.stringContaining('unknown key "aproval"'),
    });
    // A key that is no misspelling is refused as what it is: a `__proto__` key, a carried state from a caller, however
    // that carry is shaped (before the schema, which would only say that its shape is wrong).
    const refusalOf = async (input: unknown) =>
      ((await (await h.start(input as never)).result().catch((e: unknown) => e)) as WorkflowFailedError).cause;
    tally.inputs++;
    expect(await refusalOf(JSON.parse('{"agent": "demo", "prompt": "never read", "__proto__": {"maxSteps": 1}}'))).toMatchObject({
      type: 'InvalidRunInputError',
      message: expect.stringContaining('The start input has a key named __proto__'),
    });
    tally.inputs++;
    expect(await refusalOf({ agent: 'demo', prompt: 'never read', carry: { messages: 'junk' } })).toMatchObject({
      type: 'InvalidRunInputError',
      message: new InvalidRunInputError(CARRY_FROM_CALLER).message,
    });
  });

  it('fails a run whose prompt says nothing, as the client refuses it (patch set 32)', async () => {
    // Sent straight to Temporal, as another SDK would: the model's first turn would be empty.
    const input = { agent: 'demo', prompt: ' \u3000\n\u200b' };
    tally.inputs++;
    const failed = (await (await h.start(input)).result().catch((e: unknown) => e)) as WorkflowFailedError;
    expect(failed.cause).toMatchObject({ type: 'InvalidRunInputError', message: expect.stringContaining('prompt: it says nothing') });
    await expect(hitl.startRun(input)).rejects.toMatchObject({
      code: 'invalid_run_input',
      message: expect.stringContaining('says nothing'),
    });
  });

  it('fails a run whose policy nests past the stack, in its first task, instead of retrying that task for good', async () => {
    // 3,000 nested `not`s: 24 KB, inside the run policy's size limit, and past the stack of the schema that reads them,
    // which threw in the run's first task on every retry. Refused before anything walks it; the client refuses it too.
    let when: unknown = { arg: 'amount', op: 'gt', value: 1 };
    for (let i = 0; i < 3_000; i++) when = { not: when };
    const input = { agent: 'demo', prompt: 'never read', approval: { tools: { process_refund: { when } } } };
    tally.inputs++;
    const started = await h.start(input as never);
    const failed = (await started.result().catch((e: unknown) => e)) as WorkflowFailedError;
    expect(failed.cause).toMatchObject({
      type: 'InvalidRunInputError',
      message: expect.stringContaining('the start input nests deeper than 128 levels'),
    });
    await expect(hitl.startRun(input as never)).rejects.toMatchObject({
      code: 'invalid_run_input',
      message: expect.stringContaining('nests deeper than 128'),
    });
  });

  it('fails a run started straight through Temporal that names no one where it names people, as the client refuses it', async () => {
    // Sent by another SDK or the `temporal` CLI, such a start skipped the client's check: an approver entry that names
    // no one locked its tool for good, and a padded requester was someone else to four eyes.
    const input = NAMELESS_START;
    const client = await new HitlClient(h.temporal.client, h.taskQueue).startRun(input).catch((err: unknown) => err);
    expect(client).toBeInstanceOf(InvalidRunInputError);
    tally.inputs++;
    const handle = await h.start(input as never);
    const failed = (await handle.result().catch((err: unknown) => err)) as WorkflowFailedError;
    expect(failed.cause).toMatchObject({ type: 'InvalidRunInputError', message: (client as Error).message });
    expect(failed.cause?.message.split('\n').map((line) => /^(?:Invalid agentWorkflow input: )?([^:]+):/.exec(line)?.[1])).toEqual([
      'requestedBy',
      'approval.tools.write_file.approvers.0',
      'interrupt.beforeTools.approvers.0',
    ]);
    // Refused in its first task: no activity ran, not even the agent's resolution.
    const { events } = await handle.fetchHistory();
    expect(
      events?.filter(
        (e) => e.activityTaskScheduledEventAttributes || e.markerRecordedEventAttributes?.markerName === 'core_local_activity',
      ),
    ).toEqual([]);
  });

  it("fails a sub-agent that a workflow of the user's own starts with such names, in its first task, with the same lines", async () => {
    const client = (await new HitlClient(h.temporal.client, h.taskQueue).startRun(NAMELESS_START).catch((err: unknown) => err)) as Error;
    expect(client).toBeInstanceOf(InvalidRunInputError);
    const { worker, taskQueue } = await foreignWorker(h, 'foreign-parent-workflow.ts');
    const workflowId = uniqueName('foreign-child');
    tally.inputs++;
    const outcome = await worker.runUntil(
      h.temporal.client.workflow.execute(foreignParentWorkflow, {
        taskQueue,
        workflowId: uniqueName('foreign-parent'),
        // A child that waits instead of failing fails the test here, not at its timeout with the worker still running.
        workflowExecutionTimeout: '60s',
        args: [{ taskQueue: h.taskQueue, workflowId, child: NAMELESS_START }],
      }),
    );
    expect(outcome).toEqual({ type: 'InvalidRunInputError', message: client.message });
    const { events } = await h.temporal.client.workflow.getHandle(workflowId).fetchHistory();
    expect(events?.filter((e) => e.activityTaskScheduledEventAttributes || e.markerRecordedEventAttributes)).toEqual([
      expect.objectContaining({ markerRecordedEventAttributes: expect.objectContaining({ markerName: 'core_patch' }) }),
    ]);
  });

  it("a starter's memo is not the run's word: lists show what the run wrote, and junk breaks no list", async () => {
    tally.inputs++;
    const handle = await h.temporal.client.workflow.start('agentWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `junk-memo-${Date.now()}`,
      args: [{ agent: 'demo', prompt: 'Write with a junk memo' }],
      memo: {
        requestedBy: 'mallory',
        startedAt: '9999-12-31T00:00:00.000Z',
        prompt: 123,
        pendingApprovals: [{ id: 'call-9', approvals: 'many', validFor: '1s' }],
      },
    });
    await waitForPending(handle, 1);
    const { startTime, memo } = await handle.describe();
    // The run's first task wrote its own: its start, its prompt, and no requester it did not prove.
    expect(memo).toMatchObject({ prompt: 'Write with a junk memo', startedAt: startTime.toISOString() });
    expect(memo).not.toHaveProperty('requestedBy');
    await waitFor(async () => (await hitl.listWaiting()).some((w) => w.workflowId === handle.workflowId));
    const [listed] = (await hitl.listWaiting()).filter((w) => w.workflowId === handle.workflowId);
    expect(listed).toMatchObject({ id: 'call-1', userPrompt: 'Write with a junk memo' });
    expect(listed).not.toHaveProperty('requestedBy');
    const [run] = (await hitl.listRuns({ limit: 1000 })).filter((r) => r.workflowId === handle.workflowId);
    expect(run!.startTime).toBe(startTime.toISOString());
    expect((await http('GET', '/api/approvals')).status).toBe(200);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }] });
    await finishes(handle, 'memo done');
  });

  it('ignores forged sub-agent reports and junk session signals, staying as it was', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Expect stray signals' });
    await waitForPending(handle, 1);
    const before = await handle.query(runStateQuery);
    const forged = { workflowId: 'someone-else/call-1', seq: 1, pending: [{ ...before.pending[0]!, id: 'fake' }], tools: ['write_file'] };
    for (const send of [
      () => handle.signal(childApprovalsSignal, forged),
      () => handle.signal(childApprovalsSignal, { garbage: true } as never),
      () => handle.signal(messageSignal, { content: 5 } as never),
      () => handle.signal(endSignal, 'end now' as never),
    ]) {
      tally.inputs++;
      await send();
    }
    // A refused update after the signals is a barrier: every signal before it has been handled.
    await decide(handle, { decisions: [] }).catch(() => undefined);
    const after = await assertViewable(handle);
    if (JSON.stringify(after) !== JSON.stringify(before)) tally.changedByRefusal++;
    expect(after).toEqual(before);
    await finishes(handle, 'strays done');
  });
});
