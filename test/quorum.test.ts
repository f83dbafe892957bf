/**
 * Quorum and batch decisions on the real server: N distinct approvers (partial approvals visible in the pending
 * query, over HTTP and in the CLI), two approvers racing each counted once, the same approver never twice, the
 * requester never under four eyes, one reject settling a partial quorum, and several decisions over HTTP applied
 * all together or not at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import type { Listening } from '../src/api/listen.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { decide, refusalOf, signalDecision, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const TOKENS = {
  'ann-quorum-token-0123456789': { approver: 'ann', groups: ['finance'] },
  'bob-quorum-token-0123456789': { approver: 'bob', groups: ['finance'] },
  'cyd-quorum-token-0123456789': { approver: 'cyd', groups: ['support'] },
  'rita-quorum-token-012345678': { approver: 'rita', groups: ['finance'] },
};
type Who = 'ann' | 'bob' | 'cyd' | 'rita';
const tokenOf = (who: Who) => Object.entries(TOKENS).find(([, id]) => id.approver === who)![0];

const quorumAgent = defineAgent({
  name: 'quorum',
  instructions: 'You are a support agent.',
  tools: ['cancel_order', 'write_file'],
  approval: { tools: { cancel_order: { approvers: ['finance'], requiredApprovals: 2 }, write_file: true }, fourEyes: true },
});

/** The same quorum, where an approval holds three seconds. */
const lapsingAgent = defineAgent({
  ...quorumAgent,
  name: 'quorum-lapse',
  approval: { tools: { cancel_order: { approvers: ['finance'], requiredApprovals: 2, validFor: '3s' } } },
});

const cancel = (orderId: string) => ({ id: 'c', name: 'cancel_order', arguments: { orderId } });
const write = (file: string) => ({ id: `w-${file}`, name: 'write_file', arguments: { path: file, content: file } });

let h: Harness;
let api: Listening;

beforeAll(async () => {
  h = await startHarness({
    recordAs: 'quorum',
    agents: { quorum: quorumAgent, 'quorum-lapse': lapsingAgent },
    script: {
      conversations: [
        { match: '/^Cancel (\\d+) with two approvals/', replies: [{ toolCalls: [cancel('{{1}}')] }, { content: 'cancel handled' }] },
        { match: '/^Cancel (\\d+) on fresh approvals/', replies: [{ toolCalls: [cancel('{{1}}')] }, { content: 'cancel handled' }] },
        {
          match: 'A batch',
          replies: [{ toolCalls: [write('batch-a.txt'), write('batch-b.txt'), cancel('1238')] }, { content: 'batch handled' }],
        },
      ],
    },
  });
  api = await startTestApi(h, { tokens: TOKENS });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const http = (who: Who, method: string, path: string, body?: unknown) =>
  fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${tokenOf(who)}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

const status = (orderId: string) => (h.shop.prepare('SELECT status FROM orders WHERE id = ?').get(orderId) as { status: string }).status;
const start = (orderId: string) => h.start({ agent: 'quorum', prompt: `Cancel ${orderId} with two approvals`, requestedBy: 'rita' });

describe('quorum', () => {
  it('counts partial approvals where approvers look, and runs the tool once the second distinct approver approves', async () => {
    const handle = await start('1237');
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ id: 'call-1', checks: 7, requiredApprovals: 2, approvers: ['finance'], excludedApprovers: ['rita'] });
    const id = encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1' });

    const first = await http('ann', 'POST', `/api/approvals/${id}/approve`, {});
    expect(first).toMatchObject({
      status: 200,
      body: { applied: [{ id: 'call-1', type: 'approve', approver: 'ann', quorum: { approvals: 1, required: 2 } }] },
    });
    expect(status('1237')).toBe('open');
    expect((await handle.query(pendingApprovalsQuery))[0]!.approvals).toEqual([{ approver: 'ann', at: expect.any(String) }]);

    // Over HTTP: the partial approval shows, and the one rule of who may decide says ann may not approve again.
    const asAnn = await http('ann', 'GET', `/api/approvals/${id}`);
    expect(asAnn.body).toMatchObject({ requiredApprovals: 2, approvals: [{ approver: 'ann' }], canDecide: false });
    expect((await http('bob', 'GET', `/api/approvals/${id}`)).body.canDecide).toBe(true);
    expect(await http('ann', 'POST', `/api/approvals/${id}/approve`, {})).toMatchObject({
      status: 409,
      body: { error: { code: 'already_approved' } },
    });
    expect(await http('rita', 'POST', `/api/approvals/${id}/approve`, {})).toMatchObject({
      status: 403,
      body: { error: { code: 'four_eyes' } },
    });

    const listed = await runHitl(h, ['pending', handle.workflowId]);
    expect(listed.stdout).toContain('1/2 approvals (ann)');
    const second = await runHitl(h, ['approve', handle.workflowId, 'call-1', '--as', 'bob', '--group', 'finance']);
    expect(second).toMatchObject({ code: 0 });
    expect(second.stdout).toContain('✓ approve cancel_order (call-1) by bob');

    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'cancel handled' });
    expect(status('1237')).toBe('canceled');
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.filter((d) => d.outcome === 'applied').map((d) => [d.type, d.approver, d.quorum])).toEqual([
      ['approve', 'ann', { approvals: 1, required: 2 }],
      ['approve', 'bob', { approvals: 2, required: 2 }],
    ]);
  });

  it('two approvers racing are each counted once; one approver racing themself counts once', async () => {
    const handle = await start('1235');
    await waitForPending(handle, 1);
    const approve = (who: Who) => decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: who, groups: ['finance'] });

    const twice = await Promise.allSettled([approve('ann'), approve('ann')]);
    expect(twice.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = twice.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(await refusalOf(Promise.reject(refused.reason))).toMatchObject({ code: 'already_approved' });
    expect((await handle.query(pendingApprovalsQuery))[0]!.approvals).toHaveLength(1);

    // Two more approvers at once (one by update, one by signal) on a fresh call: both count, the tool runs once.
    const other = await start('1234');
    await waitForPending(other, 1);
    const [byUpdate] = await Promise.all([
      decide(other, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'bob', groups: ['finance'] }),
      signalDecision(other, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ann', groups: ['finance'] }),
    ]);
    expect(byUpdate.applied[0]!.quorum!.required).toBe(2);
    expect(await other.result()).toMatchObject({ output: 'cancel handled' });
    const { decisions } = await other.query(runStateQuery);
    const applied = decisions.filter((d) => d.outcome === 'applied');
    expect(applied.map((d) => d.approver).sort()).toEqual(['ann', 'bob']);
    expect(applied.map((d) => d.quorum!.approvals).sort()).toEqual([1, 2]);
    expect(status('1234')).toBe('canceled');
    expect(await toolMessages(other)).toEqual([['c', '{"orderId":"1234","status":"canceled"}']]);

    // A name that differs only in case is the same person (decision rules v7): counted once, and the requester's.
    const as = (approver: string) => decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver, groups: ['finance'] });
    expect(await refusalOf(as('ANN'))).toMatchObject({ code: 'already_approved' });
    expect(await refusalOf(as('Rita'))).toMatchObject({ code: 'four_eyes' });
    expect((await handle.query(pendingApprovalsQuery))[0]!.approvals).toEqual([expect.objectContaining({ approver: 'ann' })]);
    await approve('bob');
    expect(await handle.result()).toMatchObject({ output: 'cancel handled' });
  });

  it('a reject arriving during a partial quorum rejects: the tool never runs', async () => {
    const handle = await start('1236');
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ann', groups: ['finance'] });
    await waitFor(async () => (await handle.query(pendingApprovalsQuery))[0]?.approvals?.length === 1);
    await decide(handle, {
      decisions: [{ id: 'call-1', type: 'reject', message: 'shipped already' }],
      approver: 'bob',
      groups: ['finance'],
    });
    expect(await handle.result()).toMatchObject({ output: 'cancel handled' });
    expect(await toolMessages(handle)).toEqual([['c', 'Rejected by a human reviewer; cancel_order did not run. Reason: shipped already']]);
    expect(status('1236')).toBe('shipped');
  });
});

describe('a quorum whose approvals lapse (validFor)', () => {
  it('counts no approval older than validFor: it lapses, and its approver may approve again', async () => {
    h.shop
      .prepare("INSERT OR IGNORE INTO orders (id, customer, email, amount, status) VALUES ('9001', 'Lin', 'lin@example.com', 10, 'open')")
      .run();
    const handle = await h.start({ agent: 'quorum-lapse', prompt: 'Cancel 9001 on fresh approvals' });
    await waitForPending(handle, 1);
    const approve = (who: Who) => decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: who, groups: ['finance'] });

    expect((await approve('ann')).applied[0]!.quorum).toEqual({ approvals: 1, required: 2 });
    const id = encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1' });
    expect((await http('ann', 'GET', `/api/approvals/${id}`)).body).toMatchObject({ approvals: [{ approver: 'ann' }], canDecide: false });
    await new Promise((resolve) => setTimeout(resolve, 3500));
    // The run lists ann's approval until its next change; what approvers see (the API, the inbox) counts it lapsed
    // now, so ann is offered the decision again without waiting for someone else's.
    expect((await handle.query(pendingApprovalsQuery))[0]!.approvals!.map((a) => a.approver)).toEqual(['ann']);
    const asAnn = (await http('ann', 'GET', `/api/approvals/${id}`)).body;
    expect(asAnn).toMatchObject({ requiredApprovals: 2, canDecide: true });
    expect(asAnn).not.toHaveProperty('approvals');
    expect((await http('ann', 'GET', `/api/runs/${handle.workflowId}`)).body.pending[0]).not.toHaveProperty('approvals');
    const listed = (await http('ann', 'GET', '/api/approvals')).body.find((a: { id: string }) => a.id === id);
    expect(listed).toMatchObject({ canDecide: true });
    // ann's approval is 3.5 s old: bob's is the only one that counts, and the call still waits.
    expect((await approve('bob')).applied[0]!.quorum).toEqual({ approvals: 1, required: 2 });
    const [waiting] = await handle.query(pendingApprovalsQuery);
    expect(waiting!.approvals!.map((a) => a.approver)).toEqual(['bob']);
    expect(status('9001')).toBe('open');
    // ann approves again, within bob's three seconds: the quorum is complete and the tool runs.
    expect((await approve('ann')).applied[0]!.quorum).toEqual({ approvals: 2, required: 2 });
    expect(await handle.result()).toMatchObject({ output: 'cancel handled' });
    expect(status('9001')).toBe('canceled');
  });
});

describe('a quorum whose approvals hold for ever', () => {
  it('counts approvals under a validFor past the year 9999, which a run may add: each says it holds until then', async () => {
    h.shop
      .prepare("INSERT OR IGNORE INTO orders (id, customer, email, amount, status) VALUES ('9002', 'Lin', 'lin@example.com', 10, 'open')")
      .run();
    // The quorum agent has no validFor; a run may add one, as long as it likes. Its end as a date threw (past what a
    // Date holds), and every approval toward the quorum was refused as an internal error.
    const handle = await h.start({
      agent: 'quorum',
      prompt: 'Cancel 9002 with two approvals',
      requestedBy: 'rita',
      approval: { tools: { cancel_order: { approvers: ['finance'], requiredApprovals: 2, validFor: '99999999d' } } },
    });
    await waitForPending(handle, 1);
    const approve = (who: Who) => decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: who, groups: ['finance'] });
    expect((await approve('ann')).applied[0]!.quorum).toEqual({ approvals: 1, required: 2 });
    expect((await handle.query(pendingApprovalsQuery))[0]!.approvals).toEqual([
      expect.objectContaining({ approver: 'ann', until: '9999-12-31T23:59:59.999Z' }),
    ]);
    expect((await approve('bob')).applied[0]!.quorum).toEqual({ approvals: 2, required: 2 });
    expect(await handle.result()).toMatchObject({ output: 'cancel handled' });
  });
});

describe('a run’s own policy over HTTP', () => {
  it('takes a policy that tightens, and fails a run whose policy would loosen the agent’s', async () => {
    const tight = await http('cyd', 'POST', '/api/runs', {
      agent: 'quorum',
      prompt: 'A batch',
      approval: { tools: { write_file: { approvers: ['support'], allowedDecisions: ['approve', 'reject'] } } },
    });
    expect(tight.status).toBe(201);
    const handle = h.temporal.client.workflow.getHandle(tight.body.workflowId);
    const [first] = await waitForPending(handle, 3);
    expect(first).toMatchObject({ toolName: 'write_file', approvers: ['support'], allowedDecisions: ['approve', 'reject'] });
    await handle.terminate('checked');

    const loose = await http('cyd', 'POST', '/api/runs', {
      agent: 'quorum',
      prompt: 'A batch',
      approval: { tools: { cancel_order: true } },
    });
    expect(loose.status).toBe(201);
    const error = await h.temporal.client.workflow
      .getHandle(loose.body.workflowId)
      .result()
      .catch((e) => e);
    expect(error.cause.message).toContain('tools.cancel_order.approvers: the agent allows only finance, not anyone');
  });
});

describe('batch decisions over HTTP', () => {
  it('applies several decisions for a run together, or none of them', async () => {
    const handle = await h.start({ agent: 'quorum', prompt: 'A batch' });
    await waitForPending(handle, 3);
    const path = `/api/runs/${encodeURIComponent(handle.workflowId)}/decisions`;

    // cyd may decide the writes but not the cancel (finance only): the whole batch is refused, nothing changes.
    const refused = await http('cyd', 'POST', path, {
      decisions: [
        { id: 'call-1', type: 'approve' },
        { id: 'call-3', type: 'approve' },
      ],
    });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'approver_not_allowed' } } });
    expect(refused.body.error.message).toContain('cancel_order (call-3)');
    expect((await handle.query(pendingApprovalsQuery)).map((p) => p.id)).toEqual(['call-1', 'call-2', 'call-3']);

    expect(await http('cyd', 'POST', path, { decisions: [{ id: 'call-1', type: 'approve', approver: 'ann' }] })).toMatchObject({
      status: 400,
    });
    expect(await http('cyd', 'POST', path, { decisions: [{ id: 'call-9', type: 'approve' }] })).toMatchObject({
      status: 404,
      body: { error: { code: 'unknown_call' } },
    });

    const applied = await http('ann', 'POST', path, {
      decisions: [
        { id: 'call-1', type: 'approve' },
        { id: 'call-2', type: 'reject', message: 'one file is enough' },
        { id: 'call-3', type: 'approve' },
      ],
    });
    expect(applied).toMatchObject({ status: 200 });
    expect(applied.body.applied.map((a: any) => [a.id, a.type, a.approver, a.quorum?.approvals])).toEqual([
      ['call-1', 'approve', 'ann', undefined],
      ['call-2', 'reject', 'ann', undefined],
      ['call-3', 'approve', 'ann', 1],
    ]);
    expect((await handle.query(pendingApprovalsQuery)).map((p) => [p.id, p.approvals?.length])).toEqual([['call-3', 1]]);
    expect(await http('bob', 'POST', path, { decisions: [{ id: 'call-3', type: 'approve' }] })).toMatchObject({ status: 200 });
    expect(await handle.result()).toMatchObject({ output: 'batch handled' });
    expect((await toolMessages(handle)).map(([id]) => id)).toEqual(['w-batch-a.txt', 'w-batch-b.txt', 'c']);
  });
});
