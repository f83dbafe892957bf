/** The approval gate, decision by decision: the tool's real effect and the exact tool message the model got. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argsHash } from '../src/policy/args-hash.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { decide, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries, waitFor } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const done = { content: 'All done.' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'approval-decisions',
    script: {
      conversations: [
        { match: 'cancel order 1238', replies: [{ toolCalls: [call('a1', 'cancel_order', { orderId: '1238' })] }, done] },
        { match: 'refund order 1234', replies: [{ toolCalls: [call('e1', 'process_refund', { orderId: '1234', amount: 50000 })] }, done] },
        {
          match: 'write the rejected note',
          replies: [{ toolCalls: [call('j1', 'write_file', { path: 'rejected.txt', content: 'x' })] }, done],
        },
        {
          match: 'write the answered note',
          replies: [{ toolCalls: [call('p1', 'write_file', { path: 'answered.txt', content: 'y' })] }, done],
        },
        { match: 'small refund', replies: [{ toolCalls: [call('s1', 'process_refund', { orderId: '1238', amount: 10 })] }, done] },
        {
          match: 'mixed reply',
          replies: [
            {
              toolCalls: [
                call('m1', 'write_file', { path: 'mixed.txt', content: 'm' }),
                call('m2', 'cancel_order', { orderId: '1237' }),
                call('m3', 'read_data', { table: 'orders', where: { id: '1237' } }),
                call('m4', 'execute_sql', { query: "SELECT status FROM orders WHERE id = '1237'" }),
              ],
            },
            done,
          ],
        },
        {
          match: 'ordered batch',
          replies: [
            {
              toolCalls: [
                call('b1', 'write_file', { path: 'b1.txt', content: '1' }),
                call('b2', 'write_file', { path: 'b2.txt', content: '2' }),
              ],
            },
            done,
          ],
        },
        {
          match: 'sticky decisions',
          replies: [
            { toolCalls: [call('t1', 'write_file', { path: 't1.txt', content: '1' }), call('t2', 'cancel_order', { orderId: '1235' })] },
            { toolCalls: [call('t3', 'write_file', { path: 't3.txt', content: '3' }), call('t4', 'cancel_order', { orderId: '1236' })] },
            done,
          ],
        },
      ],
    },
  });
});
afterAll(() => h?.close());

const workspace = (file: string) => path.join(h.dataDir, 'workspace', file);

describe('each decision type, end to end', () => {
  it('approve runs the tool as the model asked', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Please cancel order 1238' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      id: 'call-1',
      toolName: 'cancel_order',
      args: { orderId: '1238' },
      argsHash: argsHash({ orderId: '1238' }),
      // cancel_order writes its own description, looking the order up.
      description: 'Tool execution requires approval: Cancel order 1238 of Barbara Liskov (paid 300, status open).',
      allowedDecisions: ['approve', 'edit', 'reject', 'respond', 'ignore'],
      step: 1,
      onTimeout: 'reject',
      rule: 'tools.cancel_order: true',
    });
    expect(Date.parse(pending!.deadline) - Date.parse(pending!.requestedAt)).toBe(7 * 24 * 3600 * 1000);
    expect(h.shop.prepare("SELECT status FROM orders WHERE id = '1238'").get()).toEqual({ status: 'open' });

    const result = await decide(handle, { decisions: [{ id: 'call-1', type: 'approve', argsHash: pending!.argsHash }], approver: 'alice' });
    expect(result).toEqual({
      applied: [{ id: 'call-1', type: 'approve', toolName: 'cancel_order', argsHash: pending!.argsHash, approver: 'alice' }],
    });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'All done.' });
    expect(h.shop.prepare("SELECT status FROM orders WHERE id = '1238'").get()).toEqual({ status: 'canceled' });
    expect(await toolMessages(handle)).toEqual([['a1', '{"orderId":"1238","status":"canceled"}']]);
  });

  it('edit runs the tool with the new arguments, validated, and says so to the model', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Please refund order 1234 in full' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      toolName: 'process_refund',
      approvers: ['finance'],
      rule: 'tools.process_refund.when: amount gt 10000',
    });
    expect(Date.parse(pending!.deadline) - Date.parse(pending!.requestedAt)).toBe(3 * 24 * 3600 * 1000);

    const result = await decide(handle, {
      decisions: [{ id: 'call-1', type: 'edit', args: { orderId: '1234', amount: 100 }, message: 'partial refund only' }],
      approver: 'fiona',
      groups: ['finance'],
    });
    expect(result.applied[0]).toEqual({
      id: 'call-1',
      type: 'edit',
      toolName: 'process_refund',
      argsHash: argsHash({ orderId: '1234', amount: 100 }),
      approver: 'fiona',
    });
    await handle.result();
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1234'").all()).toEqual([{ amount: 100 }]);
    expect(await toolMessages(handle)).toEqual([
      [
        'e1',
        '(A human reviewer edited the arguments before it ran: {"orderId":"1234","amount":100})\n{"orderId":"1234","refunded":100,"remaining":74900}',
      ],
    ]);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions).toEqual([
      expect.objectContaining({
        seq: 1,
        via: 'update',
        outcome: 'applied',
        type: 'edit',
        id: 'call-1',
        toolName: 'process_refund',
        approver: 'fiona',
        argsBefore: { orderId: '1234', amount: 50000 },
        argsAfter: { orderId: '1234', amount: 100 },
        message: 'partial refund only',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    ]);
  });

  it('reject tells the model and the tool never runs', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Please write the rejected note' });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'reject', message: 'Notes go to the wiki.' }] });
    await handle.result();
    expect(existsSync(workspace('rejected.txt'))).toBe(false);
    expect(await toolMessages(handle)).toEqual([
      ['j1', 'Rejected by a human reviewer; write_file did not run. Reason: Notes go to the wiki.'],
    ]);
    expect((await activitySummaries(handle)).filter((s) => s.startsWith('tool'))).toEqual([]);
  });

  it('respond makes the human text the tool result and the tool never runs', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Please write the answered note' });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'respond', message: 'Saved it myself; nothing to do.' }] });
    await handle.result();
    expect(existsSync(workspace('answered.txt'))).toBe(false);
    expect(await toolMessages(handle)).toEqual([['p1', 'Saved it myself; nothing to do.']]);
  });

  it('a call the policy does not gate runs without waiting', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A small refund' });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    expect((await handle.query(runStateQuery)).policyOutcomes).toEqual([
      { id: 'call-1', toolName: 'process_refund', step: 1, gated: false, rule: 'tools.process_refund.when: amount gt 10000 did not hold' },
    ]);
  });
});

describe('batches', () => {
  it('runs the automatic call at once, lets gated calls wait on their own, and keeps the model order', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A mixed reply' });
    const pending = await waitForPending(handle, 3);
    expect(pending.map((p) => p.id)).toEqual(['call-1', 'call-2', 'call-4']);
    expect(pending.find((p) => p.id === 'call-4')?.allowedDecisions).toEqual(['approve', 'reject']);
    await waitFor(async () => (await activitySummaries(handle)).includes('tool read_data'));

    await decide(handle, { decisions: [{ id: 'call-4', type: 'approve' }] });
    // The approved call runs while the other two still wait.
    await waitFor(async () => (await activitySummaries(handle)).includes('tool execute_sql'));
    expect((await handle.query(pendingApprovalsQuery)).map((p) => p.id)).toEqual(['call-1', 'call-2']);

    await decide(handle, { decisions: [{ id: 'call-2', type: 'reject' }] });
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }] });
    await handle.result();

    const order = JSON.stringify(h.shop.prepare("SELECT * FROM orders WHERE id = '1237' LIMIT 100").all());
    expect(await toolMessages(handle)).toEqual([
      ['m1', 'Wrote 1 bytes to mixed.txt.'],
      ['m2', 'Rejected by a human reviewer; cancel_order did not run.'],
      ['m3', order],
      ['m4', '[{"status":"open"}]'],
    ]);
    const sent = h.model.requests.filter((r) => JSON.stringify(r.body).includes('A mixed reply'));
    expect(sent.map((r) => r.status)).toEqual([200, 200]);
    const toolIds = (sent[1]!.body as { messages: { role: string; tool_call_id?: string }[] }).messages.flatMap((m) =>
      m.role === 'tool' ? [m.tool_call_id] : [],
    );
    expect(toolIds).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('applies decisions without ids in order to the oldest batch, and refuses a count mismatch', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'An ordered batch' });
    await waitForPending(handle, 2);
    await expect(decide(handle, { decisions: [{ type: 'approve' }] })).rejects.toMatchObject({
      cause: {
        message:
          'Got 1 decision(s) without ids, but the oldest pending batch has 2 call(s) (call-1 write_file, call-2 write_file). Send one decision per call in that order, or use ids.',
      },
    });
    const result = await decide(handle, { decisions: [{ type: 'reject', message: 'not b1' }, { type: 'approve' }] });
    expect(result.applied.map((a) => [a.id, a.type])).toEqual([
      ['call-1', 'reject'],
      ['call-2', 'approve'],
    ]);
    await handle.result();
    expect(existsSync(workspace('b1.txt'))).toBe(false);
    expect(readFileSync(workspace('b2.txt'), 'utf8')).toBe('2');
  });
});

describe('always decisions', () => {
  it('always-approve and always-reject apply to later calls of the same tool', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Try sticky decisions' });
    await waitForPending(handle, 2);
    await decide(handle, {
      decisions: [
        { id: 'call-1', type: 'approve', always: true },
        { id: 'call-2', type: 'reject', always: true, message: 'We never cancel from chat.' },
      ],
      approver: 'sam',
    });
    expect(await handle.result()).toMatchObject({ status: 'Completed', steps: 3 });

    expect(readFileSync(workspace('t3.txt'), 'utf8')).toBe('3');
    expect(h.shop.prepare("SELECT status FROM orders WHERE id IN ('1235', '1236') ORDER BY id").all()).toEqual([
      { status: 'open' },
      { status: 'shipped' },
    ]);
    expect(await toolMessages(handle)).toEqual([
      ['t1', 'Wrote 1 bytes to t1.txt.'],
      ['t2', 'Rejected by a human reviewer; cancel_order did not run. Reason: We never cancel from chat.'],
      ['t3', 'Wrote 1 bytes to t3.txt.'],
      ['t4', 'Rejected by an "always reject" decision of a human reviewer; cancel_order did not run. Reason: We never cancel from chat.'],
    ]);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.id, d.via, d.type, d.approver])).toEqual([
      ['call-1', 'update', 'approve', 'sam'],
      ['call-2', 'update', 'reject', 'sam'],
      ['call-3', 'always', 'approve', 'sam'],
      ['call-4', 'always', 'reject', 'sam'],
    ]);
  });
});
