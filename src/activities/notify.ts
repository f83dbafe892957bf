/**
 * POSTs approval events to the configured webhooks, signed with HMAC-SHA256 over `<timestamp>.<body>`
 * (header `X-Hitl-Signature: t=<unix seconds>,v1=<hex>`). URLs that already took an event are remembered in
 * heartbeat details, so a retry sends only to the ones that failed.
 */
import { createHmac } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { NotificationEvent } from '../schemas/notification-event.js';
import type { ActivityDeps } from './activity-deps.js';

export const SIGNATURE_HEADER = 'x-hitl-signature';

export function signPayload(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function createNotify({ webhooks }: ActivityDeps) {
  return {
    async notify(event: NotificationEvent): Promise<{ delivered: number }> {
      const activity = Context.current();
      const done = new Set<string>((activity.info.heartbeatDetails as string[] | undefined) ?? []);
      const body = JSON.stringify(event);
      const failures: string[] = [];
      for (const url of webhooks.urls.filter((u) => !done.has(u))) {
        const timestamp = Math.floor(Date.now() / 1000);
        try {
          const response = await fetch(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-hitl-event-id': event.id,
              ...(webhooks.secret && { [SIGNATURE_HEADER]: signPayload(webhooks.secret, timestamp, body) }),
            },
            body,
            signal: AbortSignal.any([activity.cancellationSignal, AbortSignal.timeout(10_000)]),
          });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          done.add(url);
          activity.heartbeat([...done]);
        } catch (err) {
          failures.push(`${new URL(url).origin}: ${(err as Error).message}`);
        }
      }
      if (failures.length) throw ApplicationFailure.create({ type: 'WebhookDeliveryFailed', message: failures.join('; ') });
      return { delivered: done.size };
    },
  };
}
