/**
 * Webhook events a run is still delivering when it closes (src/workflows/webhook-delivery.ts): the run hands them to
 * a delivery workflow that outlives it, so a receiver that was down as the run completed still gets the run's last
 * events with the retries any event gets. Before, the run's own notify activities were abandoned when it closed, one
 * attempt in. The delivery workflow takes only its parent run's events: started on its own, it refuses to send any.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../src/schemas/notification-event.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { uniqueName } from './helpers/temporal.js';

/** Every attempt the receiver saw, and whether it took it: it refuses each event's first three attempts. */
const attempts: { event: NotificationEvent; at: number; taken: boolean }[] = [];
let server: Server;
let h: Harness;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const event = JSON.parse(body) as NotificationEvent;
      const taken = event.type !== 'approval.decided' || attempts.filter((a) => a.event.id === event.id).length >= 3;
      attempts.push({ event, at: Date.now(), taken });
      res.writeHead(taken ? 204 : 503).end();
    });
  });
  const url = await new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)),
  );
  h = await startHarness({
    webhooks: { urls: [url], secret: 'a-webhook-secret-for-tests' },
    script: {
      conversations: [
        {
          match: 'deliver after the close',
          replies: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'after.txt', content: 'a' } }] }, { content: 'written' }],
        },
      ],
    },
  });
});
afterAll(async () => {
  await h?.close();
  server?.closeAllConnections();
  server?.close();
});

describe('webhook events after the run closes', () => {
  it('are delivered by a workflow the closing run hands them to, with their retries', { timeout: 120_000 }, async () => {
    const run = await h.start({ agent: 'demo', prompt: 'deliver after the close' });
    const [call] = await waitForPending(run, 1);
    await decide(run, { decisions: [{ id: call!.id, type: 'approve' }], approver: 'pat' });
    expect(await run.result()).toMatchObject({ status: 'Completed', output: 'written' });
    const closedAt = (await run.describe()).closeTime!.getTime();

    const decided = () => attempts.filter((a) => a.event.workflowId === run.workflowId && a.event.type === 'approval.decided');
    await waitFor(() => Promise.resolve(decided().some((a) => a.taken)), 60_000, 'the decided event taken');
    const tries = decided();
    // One event, tried until taken: the last attempt after the run had closed.
    expect(new Set(tries.map((a) => a.event.id)).size).toBe(1);
    expect(tries.map((a) => a.taken)).toEqual([false, false, false, true]);
    expect(tries.at(-1)!.at).toBeGreaterThan(closedAt);

    // By the run's child, which outlived it and says what it delivered.
    const children = [];
    for await (const w of h.temporal.client.workflow.list({
      query: `WorkflowType = 'webhookDeliveryWorkflow' AND ParentWorkflowId = '${run.workflowId}'`,
    }))
      children.push(w);
    expect(children).toHaveLength(1);
    const delivery = h.temporal.client.workflow.getHandle(children[0]!.workflowId);
    expect(await delivery.result()).toEqual({ delivered: 1, failed: 0 });
    expect(children[0]!.workflowId).toBe(`${run.workflowId}/webhooks-${tries[0]!.event.id.split(':').at(-1)}`);
  });

  it('refuses to send events it was not handed by their own run', async () => {
    const event = attempts[0]!.event;
    const before = attempts.length;
    const forged = await h.temporal.client.workflow.start('webhookDeliveryWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: uniqueName('forged-delivery'),
      args: [{ events: [{ ...event, type: 'approval.decided' }] }],
    });
    const failed = await forged.result().catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(WorkflowFailedError);
    expect((failed as WorkflowFailedError).cause).toMatchObject({
      type: 'InvalidDeliveryInput',
      message: expect.stringContaining('it was not started by the run whose events they are'),
    });
    const malformed = await h.temporal.client.workflow.start('webhookDeliveryWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: uniqueName('malformed-delivery'),
      args: [{ events: [{ id: 'x' }] }],
    });
    expect(((await malformed.result().catch((err: unknown) => err)) as WorkflowFailedError).cause).toMatchObject({
      type: 'InvalidDeliveryInput',
    });
    expect(attempts.length).toBe(before);
  });
});
