/**
 * Webhook events when the receiver is slow and the run makes them faster than it answers (patch notificationsBounded,
 * src/workflows/run-notifications.ts): at most MAX_NOTIFICATIONS_IN_FLIGHT are delivered at once, as many activities,
 * and the rest wait their turn; none is lost.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../src/schemas/notification-event.js';
const MAX_NOTIFICATIONS_IN_FLIGHT = 500;
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const CALLS = 32;
const REMINDERS = 30;
/** Every event the receiver took, by id (retries of one event come under one id). */
const received = new Map<string, NotificationEvent>();
/** Requests the receiver holds unanswered until it is released. */
const held: ServerResponse[] = [];
let releasing = false;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const event = JSON.parse(body) as NotificationEvent;
    received.set(event.id, event);
    if (releasing) return void res.writeHead(204).end();
    held.push(res);
  });
});
let h: Harness;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const calls = Array.from({ length: CALLS }, (_, i) => ({ name: 'write_file', arguments: { path: `b${i}.txt`, content: 'b' } }));
  h = await startHarness({
    webhooks: { urls: [url], secret: 'a-webhook-secret-for-tests' },
    script: { conversations: [{ match: 'flood a slow webhook', replies: [{ toolCalls: calls }, { content: 'done' }] }] },
  });
});
afterAll(async () => {
  releasing = true;
  for (const res of held.splice(0)) res.writeHead(204).end();
  await h?.close();
  server.closeAllConnections();
  server.close();
});

describe('webhook events past what a slow receiver takes', () => {
  it(`are delivered at most ${MAX_NOTIFICATIONS_IN_FLIGHT} at once, the rest in turn, none lost`, { timeout: 170_000 }, async () => {
    // Each call waits with reminders 2 s apart from its announcement on: 32 × (1 + 30) events within a minute. A
    // reminder whose time has passed is skipped, and the server may fire a timer a second late or more under load:
    // the spacing keeps enough of them to pass the bound.
    const reminders = Array.from({ length: REMINDERS }, (_, i) => `${600 - 2 * (i + 1)}s`);
    const handle = await h.start({
      agent: 'demo',
      prompt: 'flood a slow webhook',
      approval: { tools: { write_file: { timeout: '10m', reminders } } },
      // By default a waiting run starts over once its history holds 500 events, handing what is in flight over, which
      // bounds it as well; a run may turn that off (51,200 is Temporal's own limit), and then only the bound does.
      continueAsNew: { beforeWaitEvents: 51_200 },
    });
    await waitForPending(handle, CALLS);
    const pendingActivities = async () => (await handle.describe()).raw.pendingActivities?.length ?? 0;
    await waitFor(async () => (await pendingActivities()) >= MAX_NOTIFICATIONS_IN_FLIGHT, 90_000, 'a full load in flight');
    // Reminders go on firing meanwhile: what comes past the bound waits in the run, not as an activity.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await pendingActivities()).toBe(MAX_NOTIFICATIONS_IN_FLIGHT);
    expect(held.length).toBeGreaterThan(0);

    releasing = true;
    for (const res of held.splice(0)) res.writeHead(204).end();
    // Events are numbered from 1 as they happen: every number up to the last taken, and more than the bound, means
    // none was dropped and each went out under its own id once the receiver answered.
    const numbers = () =>
      [...received.values()]
        .filter((e) => e.workflowId === handle.workflowId)
        .map((e) => Number(e.id.split(':').at(-1)))
        .sort((a, b) => a - b);
    const complete = () => {
      const taken = numbers();
      return taken.length > MAX_NOTIFICATIONS_IN_FLIGHT && taken.every((n, i) => n === i + 1);
    };
    await waitFor(() => Promise.resolve(complete()), 120_000, 'every event delivered');
    const mine = [...received.values()].filter((e) => e.workflowId === handle.workflowId);
    expect(mine.filter((e) => e.type === 'approval.requested')).toHaveLength(CALLS);
    expect(mine.filter((e) => e.type === 'approval.reminder').length).toBeGreaterThan(MAX_NOTIFICATIONS_IN_FLIGHT - CALLS);
    await handle.terminate();
  });
});
