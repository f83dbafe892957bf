/**
 * Internal to runs, not for clients: a webhook delivery workflow asks the run that started it for the events it handed
 * over as it closed (src/workflows/webhook-delivery.ts), by their ids. The delivery sends only what the run answers:
 * a workflow that started a delivery of its own could otherwise have the worker sign and send any event it wrote.
 * The answer holds the events as the run sent them first (not as their calls stand now), and none it did not hand over.
 */
import { defineQuery } from '@temporalio/workflow';
import type { NotificationEvent } from '../schemas/notification-event.js';

export const handedOverEventsQuery = defineQuery<NotificationEvent[], [string[]]>('hitl.handedOverEvents');
