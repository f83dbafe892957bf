/**
 * A decision never exceeds its authority, on the real server: an edit into another tool is judged by that tool's
 * policy (as if the model had proposed it), and with signed decisions the identity comes from a token the run
 * verifies, whatever the channel: update, signal, HTTP, or the `temporal` CLI with a token from `hitl sign`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import type { Listening } from '../src/api/listen.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import type { Decision } from '../src/schemas/decision.js';
import type { PublicJwk } from '../src/signing/jwk.js';
import { signedDecision, type DecisionSigner } from '../src/signing/sign-decision.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { decide, refusalOf, signalDecision, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { newSigner, trustOf } from './helpers/signing.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const TOKENS = {
  'alice-authority-token-0123': { approver: 'alice', groups: ['finance'] },
  'bob-authority-token-012345': { approver: 'bob', groups: ['support'] },
};
const CANCEL = { toolCalls: [call('c', 'cancel_order', { orderId: '1237' })] };
const WRITE = { toolCalls: [call('w', 'write_file', { path: 'note.txt', content: 'x' })] };

// Silence approves this agent's refunds: a call nobody decides within 5 s runs.
const patient = defineAgent({
  name: 'patient',
  instructions: 'You are a support agent.',
  tools: ['write_file', 'process_refund'],
  approval: { tools: { write_file: true, process_refund: { approvers: ['finance'], timeout: '5s', onTimeout: 'approve' } } },
});

// bob decides this agent's notes; finance too, once a note has waited two seconds.
const laddered = defineAgent({
  name: 'laddered',
  instructions: 'You are a support agent.',
  tools: ['write_file'],
  approval: { tools: { write_file: { approvers: ['user:bob'], escalate: [{ after: '2s', approvers: ['group:finance'] }] } } },
});
const note = (id: string) => call(id, 'write_file', { path: `${id}.txt`, content: id });

let h: Harness;
let api: Listening;
let signedApi: Listening;
const oldKey = newSigner('EdDSA', 'k1');
const newKey = newSigner('ES256', 'k2');
const stranger = newSigner('EdDSA', 'k1');

beforeAll(async () => {
  h = await startHarness({
    script: {
      conversations: [
        { match: 'edit into sql', replies: [CANCEL, { content: 'sql edit handled' }] },
        { match: 'edit into a refund', replies: [WRITE, { content: 'refund edit handled' }] },
        { match: 'edit into nowhere', replies: [WRITE, { content: 'nowhere handled' }] },
        { match: 'withdrawn edit', replies: [WRITE, { content: 'withdrawn handled' }] },
        {
          match: 'always, then an edit',
          replies: [
            { toolCalls: [call('r', 'process_refund', { orderId: '1235', amount: 15000 })] },
            WRITE,
            { content: 'always edit handled' },
          ],
        },
        { match: 'edit into a read', replies: [WRITE, { content: 'read edit handled' }] },
        { match: 'wait out a proposal', replies: [WRITE, { content: 'waited out' }] },
        { match: 'signed', replies: [CANCEL, { content: 'signed handled' }] },
        {
          match: 'notes up a ladder',
          replies: [{ toolCalls: [note('first')] }, { toolCalls: [note('second'), note('third')] }, { content: 'ladder handled' }],
        },
      ],
    },
    signedDecisions: { trust: trustOf([oldKey.key.publicJwk]), requiredByDefault: false },
    agents: { patient, laddered },
  });
  api = await startTestApi(h, { tokens: TOKENS });
  signedApi = await startTestApi(h, { tokens: TOKENS, signer: oldKey });
});
afterAll(async () => {
  await api?.close();
  await signedApi?.close();
  await h?.close();
});

const post = (base: Listening, who: keyof typeof TOKENS | string, path: string, body: unknown) =>
  fetch(`${base.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${Object.entries(TOKENS).find(([, id]) => id.approver === who)![0]}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('an edit into another tool is judged by that tool’s policy', () => {
  it('into a tool that allows approve and reject only: it waits for that tool’s approval, never the editor’s', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'An edit into sql' });
    const [cancel] = await waitForPending(handle, 1);
    const id = encodeApprovalId({ workflowId: handle.workflowId, callId: cancel!.id });
    const attack = "UPDATE orders SET amount = 1 WHERE id = '1237'";
    const edited = await post(api, 'bob', `/api/approvals/${id}/edit`, { name: 'execute_sql', arguments: { query: attack } });
    expect(edited).toMatchObject({ status: 200, body: { applied: [{ type: 'edit', toolName: 'execute_sql', proposedAs: 'call-1.2' }] } });
    expect(h.shop.prepare("SELECT amount FROM orders WHERE id = '1237'").get()).toEqual({ amount: 15000 });
    const [proposal] = await waitForPending(handle, 1);
    expect(proposal).toMatchObject({
      id: 'call-1.2',
      toolName: 'execute_sql',
      args: { query: attack },
      allowedDecisions: ['approve', 'reject'],
      excludedApprovers: ['bob'],
      proposedBy: { approver: 'bob', callId: 'call-1', toolName: 'cancel_order' },
      // The rule that gates what it became, not the model's cancel_order's.
      rule: expect.stringMatching(/^tools\.execute_sql/),
    });
    // The editor may not approve what he proposed; someone else may reject it, and the model hears why.
    const proposalId = encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1.2' });
    const asBob = await fetch(`${api.url}/api/approvals/${proposalId}`, { headers: { authorization: `Bearer ${Object.keys(TOKENS)[1]}` } });
    expect(await asBob.json()).toMatchObject({ canDecide: false, canWithdraw: true, whyNot: { code: 'four_eyes', proposer: true } });
    expect(await post(api, 'bob', `/api/approvals/${proposalId}/approve`, {})).toMatchObject({
      status: 403,
      // Bob did not request this run: the refusal says what he did.
      body: {
        error: { code: 'four_eyes', message: 'bob wrote execute_sql (call-1.2) by an edit and may not approve it; another approver must.' },
      },
    });
    expect(await post(api, 'alice', `/api/approvals/${proposalId}/reject`, { reason: 'no raw SQL' })).toMatchObject({ status: 200 });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'sql edit handled' });
    expect(h.shop.prepare("SELECT amount FROM orders WHERE id = '1237'").get()).toEqual({ amount: 15000 });
    expect(await toolMessages(handle)).toEqual([['c', 'Rejected by a human reviewer; execute_sql did not run. Reason: no raw SQL']]);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.id, d.type, d.toolName, d.toolNameAfter, d.proposedAs, d.approver])).toEqual([
      ['call-1', 'edit', 'cancel_order', 'execute_sql', 'call-1.2', 'bob'],
      ['call-1.2', 'reject', 'execute_sql', undefined, undefined, 'alice'],
    ]);
  });

  it('into a tool with other approvers: it waits for them, who may then run it', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'An edit into a refund' });
    const [write] = await waitForPending(handle, 1);
    const refund = { orderId: '1234', amount: 20000 };
    expect(
      await decide(handle, {
        decisions: [{ id: write!.id, type: 'edit', name: 'process_refund', args: refund }],
        approver: 'bob',
        groups: ['support'],
      }),
    ).toMatchObject({
      applied: [{ proposedAs: 'call-1.2' }],
    });
    // Shown at once; what the refund depends on, and the tool's description, are looked up while it waits.
    await waitFor(async () => (await handle.query(pendingApprovalsQuery))[0]?.world !== undefined, 30_000, "the proposal's world");
    const [proposal] = await waitForPending(handle, 1);
    expect(proposal).toMatchObject({
      id: 'call-1.2',
      toolName: 'process_refund',
      approvers: ['finance'],
      args: refund,
      world: { orderId: '1234', status: 'open', refundable: 75000 },
    });
    // The tool describes a proposal as it describes the model's calls.
    expect(proposal!.description).toContain('Refund 20000 of the 75000 still refundable on order 1234');
    expect(
      await refusalOf(decide(handle, { decisions: [{ id: 'call-1.2', type: 'approve' }], approver: 'bob', groups: ['support'] })),
    ).toMatchObject({
      code: 'approver_not_allowed',
    });
    await decide(handle, { decisions: [{ id: 'call-1.2', type: 'approve' }], approver: 'alice', groups: ['finance'] });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1234'").all()).toEqual([{ amount: 20000 }]);
    const [[, message]] = (await toolMessages(handle)) as [[string, string]];
    expect(message).toMatch(/^\(A human reviewer, bob, replaced this write_file call with process_refund; alice approved it: /);
  });

  it('its proposer may withdraw it by a reject; an answer for the tool is still for its approvers', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A withdrawn edit' });
    const [write] = await waitForPending(handle, 1);
    const bob = { approver: 'bob', groups: ['support'] };
    await decide(handle, {
      decisions: [{ id: write!.id, type: 'edit', name: 'process_refund', args: { orderId: '1237', amount: 12000 } }],
      ...bob,
    });
    await waitFor(async () => (await handle.query(pendingApprovalsQuery))[0]?.world !== undefined, 30_000, "the proposal's world");
    expect(await refusalOf(decide(handle, { decisions: [{ id: 'call-1.2', type: 'respond', message: 'done' }], ...bob }))).toMatchObject({
      code: 'approver_not_allowed',
    });
    // Not with `always`: that would reject every later refund of the run, which bob may not decide.
    expect(
      await refusalOf(decide(handle, { decisions: [{ id: 'call-1.2', type: 'reject', message: 'no refunds', always: true }], ...bob })),
    ).toMatchObject({ code: 'approver_not_allowed' });
    await decide(handle, { decisions: [{ id: 'call-1.2', type: 'reject', message: 'my mistake' }], ...bob });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'withdrawn handled' });
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.id, d.type, d.approver, d.message])).toEqual([
      ['call-1', 'edit', 'bob', undefined],
      ['call-1.2', 'reject', 'bob', 'my mistake'],
    ]);
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1237'").all()).toEqual([]);
  });

  it('into a tool whose deadline approves: the proposal times out unrun, since nobody who may approve it did', async () => {
    const handle = await h.start({ agent: 'patient', prompt: 'Please wait out a proposal' });
    const [write] = await waitForPending(handle, 1);
    const refund = { orderId: '1238', amount: 300 };
    await decide(handle, {
      decisions: [{ id: write!.id, type: 'edit', name: 'process_refund', args: refund }],
      approver: 'bob',
      groups: ['support'],
    });
    // The model's refunds would run once 5 s pass undecided; bob's waits for finance, and times out if none comes.
    const [proposal] = await waitForPending(handle, 1);
    expect(proposal).toMatchObject({ id: 'call-1.2', toolName: 'process_refund', onTimeout: 'reject', proposedBy: { approver: 'bob' } });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'waited out' });
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1238'").all()).toEqual([]);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.id, d.type, d.toolName, d.approver])).toEqual([
      ['call-1', 'edit', 'write_file', 'bob'],
      ['call-1.2', 'timeout', 'process_refund', undefined],
    ]);
    expect(await toolMessages(handle)).toEqual([
      ['w', 'No decision arrived within 5 seconds: the approval timed out and process_refund did not run.'],
    ]);
  });

  it('into a tool someone approved `always`: it still waits for its approvers, who never saw these arguments', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Approve always, then an edit' });
    const [first] = await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: first!.id, type: 'approve', always: true }], approver: 'alice', groups: ['finance'] });
    const [write] = await waitForPending(handle, 1);
    expect(write).toMatchObject({ toolName: 'write_file' });
    // bob may decide the write, not refunds: his edit into a refund waits for finance, alice's `always` aside.
    const refund = { orderId: '1237', amount: 12000 };
    await decide(handle, {
      decisions: [{ id: write!.id, type: 'edit', name: 'process_refund', args: refund }],
      approver: 'bob',
      groups: ['support'],
    });
    const [proposal] = await waitForPending(handle, 1);
    expect(proposal).toMatchObject({ toolName: 'process_refund', args: refund, proposedBy: { approver: 'bob' } });
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1237'").all()).toEqual([]);
    await decide(handle, {
      decisions: [{ id: proposal!.id, type: 'reject', message: 'not this one' }],
      approver: 'alice',
      groups: ['finance'],
    });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'always edit handled' });
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1237'").all()).toEqual([]);
  });

  it('an `always` given by an escalation’s approver settles no later call that has not escalated to them', async () => {
    const handle = await h.start({ agent: 'laddered', prompt: 'Write notes up a ladder' });
    await waitForPending(handle, 1);
    await waitFor(async () => (await handle.query(pendingApprovalsQuery))[0]?.approvers?.includes('group:finance') === true, 15_000);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve', always: true }], approver: 'alice', groups: ['finance'] });
    // The next two notes wait for bob: alice's authority came from the first note's wait, which they have not had.
    const later = await waitForPending(handle, 2);
    expect(later.map((c) => [c.id, c.approvers])).toEqual([
      ['call-2', ['user:bob']],
      ['call-3', ['user:bob']],
    ]);
    await decide(handle, {
      decisions: [
        { id: 'call-2', type: 'approve' },
        { id: 'call-3', type: 'approve' },
      ],
      approver: 'bob',
    });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'ladder handled' });
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.filter((d) => d.outcome === 'applied').map((d) => [d.id, d.approver, d.via])).toEqual([
      ['call-1', 'alice', 'update'],
      ['call-2', 'bob', 'update'],
      ['call-3', 'bob', 'update'],
    ]);
  });

  it('into a tool the agent does not have: refused, and the run is unchanged', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'An edit into nowhere' });
    const [write] = await waitForPending(handle, 1);
    const before = await handle.query(runStateQuery);
    expect(
      await refusalOf(decide(handle, { decisions: [{ id: write!.id, type: 'edit', name: 'ask_researcher', args: { prompt: 'x' } }] })),
    ).toMatchObject({
      code: 'unknown_tool',
    });
    expect(await handle.query(runStateQuery)).toEqual(before);
    await decide(handle, { decisions: [{ id: write!.id, type: 'reject' }] });
    await handle.result();
  });

  it('into a tool the policy does not gate: it runs at once, as an edit', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'An edit into a read' });
    const [write] = await waitForPending(handle, 1);
    const applied = await decide(handle, {
      decisions: [{ id: write!.id, type: 'edit', name: 'read_data', args: { table: 'orders', where: { id: '1234' } } }],
      approver: 'bob',
    });
    expect(applied.applied[0]).not.toHaveProperty('proposedAs');
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'read edit handled' });
    expect((await toolMessages(handle))[0]![1]).toContain('Ada Lovelace');
  });
});

describe('signed decisions', () => {
  const sign = (
    signer: DecisionSigner,
    handle: WorkflowHandle,
    argsHash: string,
    decision: Decision & { id: string },
    extra: { now?: number; approver?: string } = {},
  ) =>
    signedDecision(signer, decision, {
      workflowId: handle.workflowId,
      argsHash,
      approver: extra.approver ?? 'alice',
      groups: ['finance'],
      now: extra.now ?? Date.now(),
    });

  async function signedRun(prompt: string) {
    const handle = await h.start({ agent: 'demo', prompt, approval: {} }, undefined);
    const [pending] = await waitForPending(handle, 1);
    return { handle, pending: pending! };
  }

  it('accepts a valid token by update and by signal, with the token’s identity, and refuses forged, expired, replayed and mismatched ones unchanged', async () => {
    // Runs of this harness trust `oldKey` and do not require tokens: a token, when sent, must still verify.
    const { handle, pending } = await signedRun('signed by update');
    const approve = { id: pending.id, type: 'approve' as const };
    const refusals = {
      forged: sign(stranger, handle, pending.argsHash, approve),
      expired: sign(oldKey, handle, pending.argsHash, approve, { now: Date.now() - 3600_000 }),
      otherArgs: sign(oldKey, handle, 'sha256:0000', approve),
      otherType: { ...sign(oldKey, handle, pending.argsHash, { ...approve, type: 'reject' }), type: 'approve' as const },
    };
    for (const [name, decision] of Object.entries(refusals)) {
      const before = await handle.query(runStateQuery);
      const refusal = await refusalOf(decide(handle, { decisions: [decision], approver: 'mallory' }));
      expect(refusal.code, name).toBe('token_refused');
      expect(await handle.query(runStateQuery)).toEqual(before);
    }
    const valid = sign(oldKey, handle, pending.argsHash, approve);
    // The caller claims to be mallory; the token says alice, and the token wins.
    expect((await decide(handle, { decisions: [valid], approver: 'mallory' })).applied[0]).toMatchObject({ approver: 'alice' });
    await handle.result();

    // The same token, replayed into another run, and a token sent by signal.
    const second = await signedRun('signed by signal');
    const replayed = { ...valid, id: second.pending.id };
    await signalDecision(second.handle, { decisions: [replayed] });
    await waitFor(async () => (await second.handle.query(runStateQuery)).decisions.length === 1);
    expect((await second.handle.query(runStateQuery)).decisions[0]).toMatchObject({
      outcome: 'refused',
      refusal: { code: 'token_refused' },
    });
    await signalDecision(second.handle, {
      decisions: [sign(oldKey, second.handle, second.pending.argsHash, { id: second.pending.id, type: 'reject', message: 'signed no' })],
    });
    expect(await second.handle.result()).toMatchObject({ status: 'Completed' });
    expect((await second.handle.query(runStateQuery)).decisions.at(-1)).toMatchObject({
      outcome: 'applied',
      type: 'reject',
      approver: 'alice',
      via: 'signal',
    });
  });

  it('requires a token when the run says so; rotation keeps paused runs on the keys they started with', async () => {
    await h.restartWorker({ signedDecisions: { trust: trustOf([oldKey.key.publicJwk]), requiredByDefault: true } });
    const paused = await signedRun('signed before rotation');
    expect(
      await refusalOf(decide(paused.handle, { decisions: [{ id: paused.pending.id, type: 'approve' }], approver: 'alice' })),
    ).toMatchObject({
      code: 'token_refused',
      message: expect.stringContaining('requires a signed decision token'),
    });
    // Rotate: new runs trust both keys; the paused run keeps trusting only the key it started with.
    const both: PublicJwk[] = [oldKey.key.publicJwk, newKey.key.publicJwk];
    await h.restartWorker({ signedDecisions: { trust: trustOf(both), requiredByDefault: true } });
    const fresh = await signedRun('signed after rotation');
    const approveFresh = sign(newKey, fresh.handle, fresh.pending.argsHash, { id: fresh.pending.id, type: 'approve' });
    await decide(fresh.handle, { decisions: [approveFresh] });
    expect(await fresh.handle.result()).toMatchObject({ status: 'Completed' });
    const byNewKey = sign(newKey, paused.handle, paused.pending.argsHash, { id: paused.pending.id, type: 'approve' });
    expect(await refusalOf(decide(paused.handle, { decisions: [byNewKey] }))).toMatchObject({ code: 'token_refused' });
    await decide(paused.handle, {
      decisions: [sign(oldKey, paused.handle, paused.pending.argsHash, { id: paused.pending.id, type: 'approve' })],
    });
    expect(await paused.handle.result()).toMatchObject({ status: 'Completed' });
  });

  it('the HTTP API signs in the caller’s name; the temporal CLI decides with a token from `hitl sign`', async () => {
    const viaHttp = await signedRun('signed over http');
    const id = encodeApprovalId({ workflowId: viaHttp.handle.workflowId, callId: viaHttp.pending.id });
    expect(await post(api, 'bob', `/api/approvals/${id}/approve`, {})).toMatchObject({
      status: 403,
      body: { error: { code: 'token_refused' } },
    });
    expect(await post(signedApi, 'bob', `/api/approvals/${id}/approve`, {})).toMatchObject({
      status: 200,
      body: { applied: [{ approver: 'bob' }] },
    });
    await viaHttp.handle.result();

    const viaCli = await signedRun('signed with the temporal cli');
    const minted = await runHitl(
      h,
      [
        'sign',
        '--json',
        '--workflow-id',
        viaCli.handle.workflowId,
        '--call',
        viaCli.pending.id,
        '--type',
        'reject',
        '--args-hash',
        viaCli.pending.argsHash,
        '--as',
        'ops',
        '--message',
        'from the CLI',
      ],
      {
        env: { HITL_SIGNING_KEY: JSON.stringify(oldKey.privateJwk) },
      },
    );
    expect(minted.code, minted.stderr).toBe(0);
    const input = JSON.parse(minted.stdout);
    await promisify(execFile)(inject('temporalCliPath'), [
      'workflow',
      'update',
      'execute',
      '--address',
      h.temporal.address,
      '--namespace',
      h.temporal.namespace,
      '--workflow-id',
      viaCli.handle.workflowId,
      '--name',
      'decide',
      '--input',
      JSON.stringify(input),
    ]);
    expect(await viaCli.handle.result()).toMatchObject({ status: 'Completed' });
    expect((await viaCli.handle.query(runStateQuery)).decisions.at(-1)).toMatchObject({
      type: 'reject',
      approver: 'ops',
      message: 'from the CLI',
    });
    await new HitlClient(h.temporal.client, h.taskQueue).getRun(viaCli.handle.workflowId);
  });

  it('a signer with no pending call to bind a token to sends the decision unsigned, and it is refused for what it is', async () => {
    const { handle, pending } = await signedRun('signed for a call no longer pending');
    await decide(handle, { decisions: [sign(oldKey, handle, pending.argsHash, { id: pending.id, type: 'reject' })] });
    await handle.result();
    const id = encodeApprovalId({ workflowId: handle.workflowId, callId: pending.id });
    // Before, the signer bound a token to an empty argsHash and failed: HTTP 500, and a raw validation error.
    expect(await post(signedApi, 'bob', `/api/approvals/${id}/approve`, {})).toMatchObject({
      status: 409,
      body: { error: { code: 'already_decided' } },
    });
    const cli = await runHitl(h, ['approve', handle.workflowId, pending.id, '--as', 'bob'], {
      env: { HITL_SIGNING_KEY: JSON.stringify(oldKey.privateJwk) },
    });
    expect(cli.code).toBe(3);
    expect(cli.stderr + cli.stdout).toContain('Refused (already_decided): call-1 was already decided (reject by alice).');
  });
});
