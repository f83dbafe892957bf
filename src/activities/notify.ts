/**
 * POSTs approval events to the configured webhooks, signed with HMAC-SHA256 over `<timestamp>.<body>`
 * (header `X-Hitl-Signature: t=<unix seconds>,v1=<hex>`). Every receiver is tried at once, so one that is slow or
 * down delays no other. The URLs that took an event are remembered in heartbeat details, so a retry sends only to
 * those that did not (at least once: a worker that dies mid-attempt forgets that attempt's; receivers deduplicate
 * by `X-Hitl-Event-Id`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createHmac } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { NotificationEvent } from '../schemas/notification-event.js';
import type { ActivityDeps } from './activity-deps.js';

export const SIGNATURE_HEADER = 'x-hitl-signature';

/** How long one receiver has to answer, per attempt. */
const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * How long an attempt that failed somewhere waits after its heartbeat before it fails. Core sends the heartbeat on its
 * own; a failure sent right behind it sometimes reached the server first, which then refused the ended attempt's
 * heartbeat, and the retry sent to every receiver again (test/webhook-retries.test.ts, without this wait).
 */
const HEARTBEAT_SETTLE_MS = 1_000;

export function signPayload(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Delivers `body` to `url`; throws with why it was not taken. */
async function deliver(url: string, event: NotificationEvent, body: string, secret: string | undefined, cancelled: AbortSignal) {
  const timestamp = Math.floor(Date.now() / 1000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hitl-event-id': event.id,
      ...(secret && { [SIGNATURE_HEADER]: signPayload(secret, timestamp, body) }),
    },
    body,
    // A redirect would re-send the signed event to a URL nobody configured.
    redirect: 'manual',
    signal: AbortSignal.any([cancelled, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
  });
  await response.body?.cancel();
  if (response.status >= 300 && response.status < 400) throw new Error(`HTTP ${response.status}: redirects are not followed`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}

export function createNotify({ webhooks }: ActivityDeps) {
  return {
    async notify(event: NotificationEvent): Promise<{ delivered: number }> {
      const activity = Context.current();
      const details = activity.info.heartbeatDetails;
      const done = new Set<string>(Array.isArray(details) ? details.filter((d): d is string => typeof d === 'string') : []);
      const body = JSON.stringify(event);
      const todo = webhooks.urls.filter((u) => !done.has(u));
      const outcomes = await Promise.allSettled(todo.map((url) => deliver(url, event, body, webhooks.secret, activity.cancellationSignal)));
      const failures: string[] = [];
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') done.add(todo[i]!);
        else failures.push(`${new URL(todo[i]!).origin}: ${(outcome.reason as Error).message}`);
      });
      if (failures.length === 0) return { delivered: done.size };
      // One heartbeat per attempt: Core sends an attempt's first at once, and holds later ones back (throttled).
      if (failures.length < todo.length) {
        activity.heartbeat([...done]);
        await sleep(HEARTBEAT_SETTLE_MS, undefined, { signal: activity.cancellationSignal }).catch(() => {});
      }
      throw ApplicationFailure.create({ type: 'WebhookDeliveryFailed', message: failures.join('; ') });
    },
  };
}
