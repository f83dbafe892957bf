/**
 * Every prompt the demo suggests, end to end, through the offline model `npm start` and `npm run demo` use
 * (src/demo/offline-model.ts: the scripted model server playing src/demo/demo-script.json, reached by the real
 * `openai` client): the scripted model's own list ("Try: …"), and the prompt of `npm start`'s "Try it" lines. Each
 * waits for a human where the demo policy says so, and once decided does what it says: "Cancel order N" cancels
 * order N, or says why not.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvConfig } from '../src/config.js';
import { DEMO_SCRIPT_PATH, modelForDemo } from '../src/demo/offline-model.js';
import { tryItLines } from '../src/demo/try-it.js';
import type { ModelServer } from '../src/model-server/server.js';
import { decide, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const script = JSON.parse(readFileSync(DEMO_SCRIPT_PATH, 'utf8')) as { default: { content: string } };
/** What the scripted model suggests when it does not know a prompt: `Try: "…", "…" or "…".` */
const suggested = [...script.default.content.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
const tryIt = tryItLines({ apiUrl: 'http://127.0.0.1:8787' }).flatMap((line) => /hitl start .*"([^"]+)"/.exec(line)?.[1] ?? []);
const tested = ['Refund order 1234 in full', 'Cancel order 1238', 'Cancel order 1237', 'Cancel order 1236', 'Email Ada about her refund'];

let h: Harness;
let model: ModelServer;
const orders = () => h.shop.prepare('SELECT id, status, refunded FROM orders ORDER BY id').all() as { id: string; status: string }[];
const statusOf = (id: string) => orders().find((o) => o.id === id)?.status;

beforeAll(async () => {
  const offline = await modelForDemo(readEnvConfig({}));
  model = offline.server!;
  h = await startHarness({ model });
});
afterAll(() => h?.close());

describe('the demo', () => {
  it('suggests only prompts tested here, and its default answer is what an unknown prompt gets', async () => {
    expect(suggested).toEqual(['Refund order 1234 in full', 'Cancel order 1238', 'Email Ada about her refund']);
    expect(tryIt).toEqual(['Refund order 1234 in full']);
    for (const prompt of [...suggested, ...tryIt]) expect(tested).toContain(prompt);
    const handle = await h.start({ agent: 'demo', prompt: 'What is the weather?' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: script.default.content });
  });

  it('refunds order 1234 in full once finance approves, after looking it up without asking', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Refund order 1234 in full' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      id: 'call-2',
      toolName: 'process_refund',
      args: { orderId: '1234', amount: 75000 },
      approvers: ['finance'],
    });
    await decide(handle, {
      decisions: [{ id: 'call-2', type: 'approve', argsHash: pending!.argsHash }],
      approver: 'alice',
      groups: ['finance'],
    });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: expect.stringContaining('order 1234') });
    expect((await toolMessages(handle)).map(([id]) => id)).toEqual(['call_lookup', 'call_refund']);
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1234'").all()).toEqual([{ amount: 75000 }]);
    expect(statusOf('1234')).toBe('refunded');
  });

  it.each(['1238', '1237'])('"Cancel order %s" cancels that order and no other', async (orderId) => {
    const before = orders();
    const handle = await h.start({ agent: 'demo', prompt: `Cancel order ${orderId}` });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ id: 'call-1', toolName: 'cancel_order', args: { orderId } });
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'bob' });
    expect(await handle.result()).toMatchObject({
      status: 'Completed',
      output: `I asked to cancel order ${orderId}; the tool result above says whether it was canceled.`,
    });
    expect(await toolMessages(handle)).toEqual([['call_cancel', JSON.stringify({ orderId, status: 'canceled' })]]);
    expect(orders()).toEqual(before.map((o) => (o.id === orderId ? { ...o, status: 'canceled' } : o)));
  });

  it('"Cancel order 1236" is refused by the shop: the order has shipped, and the model is told', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Cancel order 1236' });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'bob' });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    const [[, result]] = (await toolMessages(handle)) as [[string, string]];
    expect(result).toContain('Order 1236 has shipped and cannot be canceled.');
    expect(statusOf('1236')).toBe('shipped');
  });

  it('emails Ada about her refund once a human approves the gated email', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Email Ada about her refund' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      toolName: 'send_email',
      args: { to: 'ada@example.com', subject: 'About your refund', body: 'Your refund is on its way.' },
    });
    await decide(handle, { decisions: [{ id: pending!.id, type: 'approve', argsHash: pending!.argsHash }], approver: 'alice' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'The email is handled.' });
    const outbox = readFileSync(path.join(h.dataDir, 'outbox.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(outbox).toEqual([
      expect.objectContaining({ to: 'ada@example.com', subject: 'About your refund', body: 'Your refund is on its way.' }),
    ]);
  });
});
