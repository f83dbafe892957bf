/**
 * Consent that expires and drift that is caught, on the real server: an approval with `validFor` whose tool could
 * not start in time (its sibling holds the worker's only activity slot) goes back to pending, and so does an
 * approved refund whose order changed since approvers saw it (the tool's precheck) or whose precheck fails.
 * Approvers see why, and what changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import type { Listening } from '../src/api/listen.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import type { ToolImplementation } from '../src/tools/implement-tool.js';
import { startTestApi } from './helpers/api.js';
import { decide, refusalOf, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries, waitFor } from './helpers/history.js';

const consentAgent = defineAgent({
  name: 'consent',
  instructions: 'You are a support agent.',
  tools: ['cancel_order', 'write_file'],
  // Not a whole second: a run writes it as it is (`ms` wrote 2.5 s as `3s`, and views read that back).
  approval: { tools: { write_file: { validFor: '2500ms' } } },
});

const TOKENS = { 'fiona-consent-token-0123456': { approver: 'fiona', groups: ['finance'] } };
const FINANCE = { approver: 'fiona', groups: ['finance'] };

/** The sibling cancel_order holds its activity slot until the test lets it go (order 1237: the second test's). */
let release: () => void = () => {};
const held = new Promise<void>((resolve) => (release = resolve));
let releaseSecond: () => void = () => {};
const heldSecond = new Promise<void>((resolve) => (releaseSecond = resolve));
/** How often the process_refund precheck ran for order 1235 (it fails from the second time on). */
let flakyPrechecks = 0;
/** How often it ran for order 1236 (its first three attempts fail: the call is shown without a world). */
let latePrechecks = 0;
/** The first precheck of a refund of 12345 (a proposal's) waits until the test lets it go. */
let seeProposal: () => void = () => {};
const proposalSeen = new Promise<void>((resolve) => (seeProposal = resolve));
let proposalPrechecks = 0;

function wrapTools(tools: Record<string, ToolImplementation>): Record<string, ToolImplementation> {
  const cancel = tools.cancel_order!;
  const refund = tools.process_refund!;
  return {
    ...tools,
    cancel_order: {
      ...cancel,
      run: async (args, ctx) => (await ((args as { orderId: string }).orderId === '1237' ? heldSecond : held), cancel.run(args, ctx)),
    },
    process_refund: {
      ...refund,
      precheck: async (args, ctx) => {
        const { orderId, amount } = args as { orderId: string; amount: number };
        if (orderId === '1235' && ++flakyPrechecks > 1) throw new Error('the order service is down');
        if (orderId === '1236' && ++latePrechecks <= 3) throw new Error('the order service is starting');
        if (amount === 12345 && ++proposalPrechecks === 1) await proposalSeen;
        return refund.precheck!(args, ctx);
      },
    },
  };
}

let h: Harness;
let api: Listening;

beforeAll(async () => {
  h = await startHarness({
    recordAs: 'consent',
    agents: { consent: consentAgent },
    wrapTools,
    // One activity at a time: the held sibling keeps the approved write from starting.
    workerOverrides: { maxConcurrentActivityTaskExecutions: 1 },
    script: {
      conversations: [
        {
          match: 'Cancel and write',
          replies: [
            {
              toolCalls: [
                { id: 'cancel', name: 'cancel_order', arguments: { orderId: '1238' } },
                { id: 'write', name: 'write_file', arguments: { path: 'consent.txt', content: 'x' } },
              ],
            },
            { content: 'both done' },
          ],
        },
        {
          match: 'A batch of refunds on 1237',
          replies: [
            {
              toolCalls: [
                { id: 'big', name: 'process_refund', arguments: { orderId: '1237', amount: 12000 } },
                { id: 'small', name: 'process_refund', arguments: { orderId: '1237', amount: 5 } },
              ],
            },
            { content: 'batch handled' },
          ],
        },
        {
          match: 'Cancel 1237 and write',
          replies: [
            {
              toolCalls: [
                { id: 'cancel', name: 'cancel_order', arguments: { orderId: '1237' } },
                { id: 'write', name: 'write_file', arguments: { path: 'consent-2.txt', content: 'x' } },
              ],
            },
            { content: 'both done again' },
          ],
        },
        {
          match: 'Write a note',
          replies: [
            { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'note.txt', content: 'x' } }] },
            { content: 'note handled' },
          ],
        },
        {
          match: '/^Refund (\\d+) on (\\d+)/',
          replies: [
            { toolCalls: [{ id: 'r', name: 'process_refund', arguments: { orderId: '{{2}}', amount: 20000 } }] },
            { content: 'refund handled' },
          ],
        },
      ],
    },
  });
  api = await startTestApi(h, { tokens: TOKENS });
});
afterAll(async () => {
  release();
  releaseSecond();
  seeProposal();
  await api?.close();
  await h?.close();
});

/** Waits until the call is pending again under `id`, and returns what is pending. */
async function pendingAgain(handle: Awaited<ReturnType<Harness['start']>>, id: string) {
  await waitFor(async () => (await handle.query(pendingApprovalsQuery))[0]?.id === id, 30_000, `${id} pending`);
  return handle.query(pendingApprovalsQuery);
}

describe('consent that expires', () => {
  it('an approval whose tool has not started within validFor (its sibling holds the only slot) waits again', async () => {
    const handle = await h.start({ agent: 'consent', prompt: 'Cancel and write' });
    const [write] = await waitForPending(handle, 1);
    expect(write).toMatchObject({ id: 'call-2', toolName: 'write_file', validFor: '2500ms' });
    await decide(handle, { decisions: [{ id: 'call-2', type: 'approve' }], approver: 'ann' });

    const [again] = await pendingAgain(handle, 'call-2.2');
    expect(again).toMatchObject({
      id: 'call-2.2',
      toolName: 'write_file',
      repended: {
        reason: 'consent_expired',
        previousId: 'call-2',
        approvedBy: 'ann',
        message: 'write_file had not started within 2500 milliseconds of its approval.',
      },
    });
    release();
    await decide(handle, { decisions: [{ id: 'call-2.2', type: 'approve' }], approver: 'bob' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'both done' });
    expect(await toolMessages(handle)).toEqual([
      ['cancel', '{"orderId":"1238","status":"canceled"}'],
      ['write', 'Wrote 1 bytes to consent.txt.'],
    ]);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.id, d.event ?? d.type, d.approver, d.proposedAs])).toEqual([
      ['call-2', 'approve', 'ann', undefined],
      ['call-2', 'consent_expired', undefined, 'call-2.2'],
      ['call-2.2', 'approve', 'bob', undefined],
    ]);
  });

  it('an edit whose approval lapsed waits again as the edit, not as the call it replaced', async () => {
    const handle = await h.start({ agent: 'consent', prompt: 'Cancel 1237 and write' });
    const [write] = await waitForPending(handle, 1);
    const edited = { path: 'consent-edited.txt', content: 'y' };
    await decide(handle, { decisions: [{ id: write!.id, type: 'edit', args: edited }], approver: 'ann' });
    const [again] = await pendingAgain(handle, `${write!.id}.2`);
    expect(again).toMatchObject({ toolName: 'write_file', args: edited, repended: { reason: 'consent_expired', approvedBy: 'ann' } });
    releaseSecond();
    await decide(handle, { decisions: [{ id: again!.id, type: 'approve' }], approver: 'bob' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'both done again' });
    expect((await toolMessages(handle))[1]![1]).toContain('Wrote 1 bytes to consent-edited.txt.');
  });
});

describe('drift caught by a precheck', () => {
  it('a refund whose order changed since it was shown waits again; approvers see before and after', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Refund 20000 on 1234' });
    const [shown] = await waitForPending(handle, 1);
    expect(shown!.world).toEqual({ orderId: '1234', status: 'open', refundable: 75000 });
    // Meanwhile someone refunds part of the order elsewhere.
    h.shop.prepare("UPDATE orders SET refunded = refunded + 30000 WHERE id = '1234'").run();
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], ...FINANCE });

    await pendingAgain(handle, 'call-1.2');
    // The old id says where the call waits now: in the refusal, and in the HTTP API's 404.
    expect(await refusalOf(decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], ...FINANCE }))).toMatchObject({
      code: 'already_decided',
      message: 'call-1 was already decided (approve by fiona). It waits again as call-1.2: decide that.',
    });
    const old = await fetch(`${api.url}/api/approvals/${encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1' })}`, {
      headers: { authorization: `Bearer ${Object.keys(TOKENS)[0]}` },
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const oldStatus = await fetch(
      `${api.url}/api/approvals/${encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1' })}/status`,
      { headers: { authorization: `Bearer ${Object.keys(TOKENS)[0]}` } },
    ).then((r) => r.json() as Promise<any>);
    expect(oldStatus).toMatchObject({
      status: 'waits_again',
      waitsAs: 'call-1.2',
      waitsAsId: encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1.2' }),
    });
    expect(old).toMatchObject({
      status: 404,
      body: { error: { message: expect.stringContaining('call call-1 waits again as call-1.2 (approval ') } },
    });
    const view = await fetch(`${api.url}/api/approvals/${encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1.2' })}`, {
      headers: { authorization: `Bearer ${Object.keys(TOKENS)[0]}` },
    }).then((r) => r.json() as Promise<any>);
    expect(view).toMatchObject({
      callId: 'call-1.2',
      world: { orderId: '1234', status: 'open', refundable: 45000 },
      repended: {
        reason: 'world_changed',
        previousId: 'call-1',
        approvedBy: 'fiona',
        worldBefore: { orderId: '1234', status: 'open', refundable: 75000 },
        message: 'What process_refund depends on changed since it was approved.',
      },
    });
    // The tool's own description is written again, for the world as it is now.
    expect(view.description).toContain('Refund 20000 of the 45000 still refundable on order 1234');

    await decide(handle, { decisions: [{ id: 'call-1.2', type: 'approve' }], ...FINANCE });
    expect(await handle.result()).toMatchObject({ output: 'refund handled' });
    expect(await toolMessages(handle)).toEqual([['r', '{"orderId":"1234","refunded":20000,"remaining":25000}']]);
    expect((await activitySummaries(handle)).filter((s) => s.startsWith('precheck'))).toEqual([
      'precheck process_refund',
      'precheck process_refund',
      'precheck process_refund',
    ]);
  });

  it('a call of a batch whose sibling changes the world while it is shown: what approvers saw agrees, or approval sends it back', async () => {
    // The ungated 5 runs beside the gated 12000 while the gated one is prechecked and described (one activity slot).
    const handle = await h.start({ agent: 'demo', prompt: 'A batch of refunds on 1237' });
    const refundableIn = (description: string) => Number(/of the (\d+) still refundable/.exec(description)?.[1]);
    let [shown] = await waitForPending(handle, 1);
    // The world is looked at before the tool describes the call, so the sibling's change is in both, after both, or
    // between them: then the description shows it and the world does not, and the approval catches it.
    const order = (await activitySummaries(handle)).filter((s) => /^(precheck|describe) /.test(s));
    expect(order.slice(0, 2)).toEqual(['precheck process_refund', 'describe process_refund']);
    for (let approvals = 1; ; approvals++) {
      expect(approvals, 'approvals until the refund ran').toBeLessThanOrEqual(3);
      const agrees = refundableIn(shown!.description) === (shown!.world as { refundable: number }).refundable;
      const id = shown!.id;
      await decide(handle, { decisions: [{ id, type: 'approve' }], ...FINANCE });
      await waitFor(
        async () =>
          (await handle.query(runStateQuery)).status === 'Completed' ||
          ((await handle.query(pendingApprovalsQuery))[0]?.id !== undefined && (await handle.query(pendingApprovalsQuery))[0]?.id !== id),
        30_000,
        'the refund ran or came back',
      );
      const [again] = await handle.query(pendingApprovalsQuery);
      // Two pictures never run: an approval given on them comes back with the world as it is now.
      if (!agrees) expect(again?.repended, 'an approval on two pictures ran').toMatchObject({ reason: 'world_changed' });
      if (!again) break;
      shown = again;
    }
    expect(await handle.result()).toMatchObject({ output: 'batch handled' });
    expect(h.shop.prepare("SELECT refunded FROM orders WHERE id = '1237'").get()).toEqual({ refunded: 12005 });
  });

  it('a precheck that fails before the run sends the call back to approvers', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Refund 20000 on 1235' });
    // Order 1235 cannot take a refund of 20000, but the precheck fails first: the tool never runs on an unknown world.
    const [shown] = await waitForPending(handle, 1);
    expect(shown!.world).toEqual({ orderId: '1235', status: 'open', refundable: 120 });
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], ...FINANCE });
    const [again] = await pendingAgain(handle, 'call-1.2');
    expect(again!.repended).toMatchObject({ reason: 'precheck_failed', previousId: 'call-1' });
    expect(again!.repended!.message).toContain('the order service is down');
    await decide(handle, { decisions: [{ id: 'call-1.2', type: 'reject', message: 'later' }], ...FINANCE });
    expect(await handle.result()).toMatchObject({ output: 'refund handled' });
  });

  it('a call shown without a world (its precheck failed then) does not run on one nobody saw: it waits again with it', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Refund 20000 on 1236' });
    const [shown] = await waitForPending(handle, 1);
    expect(shown!.world).toBeUndefined();
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], ...FINANCE });
    const [again] = await pendingAgain(handle, 'call-1.2');
    expect(again).toMatchObject({
      world: { orderId: '1236', status: 'shipped', refundable: 8000 },
      repended: { reason: 'world_changed', previousId: 'call-1', message: expect.stringContaining('No approver saw what process_refund') },
    });
    await decide(handle, { decisions: [{ id: 'call-1.2', type: 'reject', message: 'shipped already' }], ...FINANCE });
    expect(await handle.result()).toMatchObject({ output: 'refund handled' });
    expect(h.shop.prepare("SELECT refunded FROM orders WHERE id = '1236'").get()).toEqual({ refunded: 0 });
  });

  it('a call proposed by an edit is shown while its world is looked up: approving it then is refused, and once it is there it can run', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Write a note' });
    const [write] = await waitForPending(handle, 1);
    // bob may decide the write, not refunds: his edit into one waits for finance, and its precheck is held.
    const args = { orderId: '1234', amount: 12345 };
    await decide(handle, {
      decisions: [{ id: write!.id, type: 'edit', name: 'process_refund', args }],
      approver: 'bob',
      groups: ['support'],
    });
    const [proposal] = await pendingAgain(handle, 'call-1.2');
    expect(proposal).toMatchObject({ toolName: 'process_refund', args, proposedBy: { approver: 'bob' }, preparing: true });
    expect(proposal!.world).toBeUndefined();
    const before = await handle.query(runStateQuery);
    expect(await refusalOf(decide(handle, { decisions: [{ id: 'call-1.2', type: 'approve' }], ...FINANCE }))).toEqual({
      code: 'not_ready',
      message:
        'process_refund (call-1.2) is being prepared for approvers: what its tool depends on is looked up first. Decide again in a moment.',
    });
    expect(await handle.query(runStateQuery)).toEqual(before);
    seeProposal();

    await waitFor(async () => (await handle.query(pendingApprovalsQuery))[0]?.world !== undefined, 30_000, "the proposal's world");
    const [ready] = await handle.query(pendingApprovalsQuery);
    expect(ready).toMatchObject({ id: 'call-1.2', world: { orderId: '1234', refundable: expect.any(Number) } });
    expect(ready).not.toHaveProperty('preparing');
    expect(ready!.description).toContain('Refund 12345 of the');
    // Finance edits the amount: the same order's world, which it saw, so the refund runs at once.
    await decide(handle, { decisions: [{ id: 'call-1.2', type: 'edit', args: { ...args, amount: 12346 } }], ...FINANCE });
    expect(await handle.result()).toMatchObject({ output: 'note handled' });
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1234' AND amount BETWEEN 12345 AND 12346").all()).toEqual([
      { amount: 12346 },
    ]);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.id, d.outcome, d.type, d.toolName, d.toolNameAfter])).toEqual([
      ['call-1', 'applied', 'edit', 'write_file', 'process_refund'],
      ['call-1.2', 'applied', 'edit', 'process_refund', undefined],
    ]);
  });

  it('an edit into another order waits again with that order, for its editor too; an edit of the amount alone runs at once', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Refund 20000 on 1237' });
    const [shown] = await waitForPending(handle, 1);
    expect(shown!.world).toMatchObject({ orderId: '1237' });
    const elsewhere = { orderId: '1238', amount: 100 };
    await decide(handle, { decisions: [{ id: 'call-1', type: 'edit', args: elsewhere }], ...FINANCE });
    const [again] = await pendingAgain(handle, 'call-1.2');
    expect(again).toMatchObject({
      toolName: 'process_refund',
      args: elsewhere,
      world: { orderId: '1238' },
      repended: {
        reason: 'world_changed',
        previousId: 'call-1',
        approvedBy: 'fiona',
        message: 'No approver saw what process_refund depends on for the edited arguments.',
        worldBefore: { orderId: '1237' },
      },
    });
    expect(again!.excludedApprovers ?? []).not.toContain('fiona');
    await decide(handle, { decisions: [{ id: 'call-1.2', type: 'approve' }], ...FINANCE });
    expect(await handle.result()).toMatchObject({ output: 'refund handled' });
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1238'").all()).toEqual([{ amount: 100 }]);

    const same = await h.start({ agent: 'demo', prompt: 'Refund 20000 on 1234' });
    await waitForPending(same, 1);
    await decide(same, { decisions: [{ id: 'call-1', type: 'edit', args: { orderId: '1234', amount: 101 } }], ...FINANCE });
    expect(await same.result()).toMatchObject({ output: 'refund handled' });
    expect((await same.query(runStateQuery)).decisions.map((d) => d.event ?? d.type)).toEqual(['edit']);
  });

  it('an edit into a tool that looks at nothing runs, though the world of the call it replaces has changed', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Refund 20000 on 1234' });
    await waitForPending(handle, 1);
    h.shop.prepare("UPDATE orders SET refunded = refunded + 1 WHERE id = '1234'").run();
    const email = { to: 'ada@example.com', subject: 'About your order', body: 'We will be in touch.' };
    await decide(handle, { decisions: [{ id: 'call-1', type: 'edit', name: 'send_email', args: email }], ...FINANCE });
    expect(await handle.result()).toMatchObject({ output: 'refund handled' });
    const [[, message]] = (await toolMessages(handle)) as [[string, string]];
    expect(message).toContain('send_email');
    expect((await handle.query(runStateQuery)).decisions.map((d) => d.event ?? d.type)).toEqual(['edit']);
  });
});
