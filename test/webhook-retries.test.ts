/**
 * Webhook delivery when a receiver is slow, down or redirects (src/activities/notify.ts): every receiver is tried at
 * once, so one that hangs delays no other; a retry sends an event only to the receivers that have not taken it; and a
 * redirect is not followed, so a signed event goes to no URL nobody configured.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../src/schemas/notification-event.js';
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

/** What the receiver that answers took, and when. */
const taken: { event: NotificationEvent; at: number }[] = [];
const hits = { hanging: 0, redirecting: 0, redirected: 0 };
const servers: Server[] = [];
let h: Harness;

function listen(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)),
  );
}

beforeAll(async () => {
  // Never answers: each attempt waits for it until the delivery's own timeout (10 s).
  const hanging = createServer(() => void hits.hanging++);
  const good = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/redirected') hits.redirected++;
      else taken.push({ event: JSON.parse(body), at: Date.now() });
      res.writeHead(204).end();
    });
  });
  const goodUrl = await listen(good);
  const redirecting = createServer((_req, res) => {
    hits.redirecting++;
    res.writeHead(307, { location: goodUrl.replace('/hook', '/redirected') }).end();
  });
  // The one that hangs comes first: one by one, every receiver after it waited for it.
  const urls = [await listen(hanging), goodUrl, await listen(redirecting)];
  h = await startHarness({
    webhooks: { urls, secret: 'a-webhook-secret-for-tests' },
    script: {
      conversations: [
        {
          match: 'notify past a hanging receiver',
          replies: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'w.txt', content: 'w' } }] }],
        },
      ],
    },
  });
});
afterAll(async () => {
  await h?.close();
  for (const server of servers) (server.closeAllConnections(), server.close());
});

describe('webhook delivery', () => {
  it('reaches a receiver at once past one that hangs, and never again on retries', { timeout: 120_000 }, async () => {
    // Two runs, their deliveries failing and retrying side by side.
    const first = await h.start({ agent: 'demo', prompt: 'notify past a hanging receiver' });
    await waitForPending(first, 1);
    const pendingAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const second = await h.start({ agent: 'demo', prompt: 'notify past a hanging receiver' });
    await waitForPending(second, 1);
    // Three attempts of each delivery.
    await waitFor(() => Promise.resolve(hits.hanging >= 6), 100_000, 'three attempts of each');
    const mine = [first, second].map((run) => taken.filter((t) => t.event.workflowId === run.workflowId));
    expect(mine.map((m) => m.map((t) => t.event.type))).toEqual([['approval.requested'], ['approval.requested']]);
    expect(mine[0]![0]!.at - pendingAt).toBeLessThan(5000);
    // The redirect was tried on every attempt, as a failure, and never followed.
    expect(hits.redirecting).toBeGreaterThanOrEqual(6);
    expect(hits.redirected).toBe(0);
    await first.terminate();
    await second.terminate();
  });
});
