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
import { handedOverEventsQuery } from '../src/contract/handed-over-query.js';
import type { NotificationEvent } from '../src/schemas/notification-event.js';
import { foreignDeliveryParentWorkflow } from './fixtures/foreign-delivery-parent.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { foreignWorker } from './helpers/foreign-worker.js';
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
    // The run, and the delivery workflow that outlives it, replay with later code (test/replay.test.ts).
    recordAs: 'webhook-after-close',
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
    // One event, refused three times, then taken, after the run had closed (the run's own attempt in flight at the
    // close may land as well: receivers deduplicate by id).
    expect(new Set(tries.map((a) => a.event.id)).size).toBe(1);
    expect(tries.slice(0, 4).map((a) => a.taken)).toEqual([false, false, false, true]);
    expect(tries.find((a) => a.taken)!.at).toBeGreaterThan(closedAt);
    // The event as the run sent it first, whatever became of its call since.
    expect(new Set(tries.map((a) => JSON.stringify(a.event))).size).toBe(1);

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
    // Anyone may ask the run what it handed over: one id asked 20,000 times is answered once.
    const handedOver = await run.query(
      handedOverEventsQuery,
      Array.from({ length: 20_000 }, () => tries[0]!.event.id),
    );
    expect(handedOver.map((e) => e.id)).toEqual([tries[0]!.event.id]);
  });

  it('sends nothing it was not handed by an agent run: started alone, or by a workflow of someone else', async () => {
    const eventIds = [attempts[0]!.event.id];
    const before = attempts.length;
    const failure = async (workflowId: string, args: unknown[]) => {
      const started = await h.temporal.client.workflow.start('webhookDeliveryWorkflow', { taskQueue: h.taskQueue, workflowId, args });
      return ((await started.result().catch((err: unknown) => err)) as WorkflowFailedError).cause;
    };
    expect(await failure(uniqueName('alone'), [{ eventIds }])).toMatchObject({
      type: 'InvalidDeliveryInput',
      message: expect.stringContaining('it was not started by the run whose events they are'),
    });
    expect(await failure(uniqueName('malformed'), [{ events: [attempts[0]!.event] }])).toMatchObject({ type: 'InvalidDeliveryInput' });

    // A parent of someone's own, asking for a real run's event by its id: the run it asks is not its parent.
    const { worker, taskQueue } = await foreignWorker(h, 'foreign-delivery-parent.ts');
    const outcome = await worker.runUntil(
      h.temporal.client.workflow.execute(foreignDeliveryParentWorkflow, {
        taskQueue,
        workflowId: uniqueName('foreign-parent'),
        workflowExecutionTimeout: '60s',
        args: [{ taskQueue: h.taskQueue, workflowId: uniqueName('forged-delivery'), eventIds }],
      }),
    );
    expect(outcome).toEqual({
      type: 'InvalidDeliveryInput',
      message: expect.stringMatching(/^Refused to deliver: its parent .* is a foreignDeliveryParentWorkflow on .*, not an agent run on /),
    });
    expect(attempts.length).toBe(before);
  });

  it(
    'a run whose id leaves no room for a delivery workflow still closes, keeping only its attempts in flight',
    { timeout: 120_000 },
    async () => {
      // Temporal takes ids of up to 1,000 bytes; `<run>/webhooks-<n>` would pass it. Asked for, the child failed the
      // closing workflow task on every retry, and the run never closed.
      const run = await h.start({ agent: 'demo', prompt: 'deliver after the close' }, `long-${'x'.repeat(990)}`);
      const [call] = await waitForPending(run, 1);
      await decide(run, { decisions: [{ id: call!.id, type: 'approve' }], approver: 'pat' });
      expect(await run.result()).toMatchObject({ status: 'Completed', output: 'written' });
      const children = [];
      for await (const w of h.temporal.client.workflow.list({
        query: `WorkflowType = 'webhookDeliveryWorkflow' AND ParentWorkflowId = '${run.workflowId}'`,
      }))
        children.push(w);
      expect(children).toEqual([]);
    },
  );
});
