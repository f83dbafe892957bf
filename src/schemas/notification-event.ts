import { z } from 'zod';
import { AuditEntry } from './audit-entry.js';
import { builtOnce } from './built-once.js';
import { PendingApproval } from './pending-approval.js';

export const NOTIFICATION_TYPES = [
  'approval.requested',
  'approval.reminder',
  'approval.escalated',
  'approval.decided',
  'approval.timed_out',
] as const;

/** The JSON body POSTed to webhooks. */
export const NotificationEvent = builtOnce('schemas/notification-event.NotificationEvent', () =>
  z.object({
    /** Unique per event (`<workflowId>:<runId>:<seq>`): receivers deduplicate on it. */
    id: z.string(),
    type: z.enum(NOTIFICATION_TYPES),
    workflowId: z.string(),
    runId: z.string(),
    agent: z.string(),
    at: z.iso.datetime(),
    /**
     * The call's global approval id, as lists, the API and the CLI take it (src/contract/approval-id.ts): a sub-agent's
     * call is named as the top-level run shows it, which decides it.
     */
    approvalId: z.string(),
    approval: PendingApproval,
    /** For `approval.decided`, `approval.timed_out` and `approval.escalated`. */
    decision: AuditEntry.optional(),
  }),
);

/** The most events one delivery workflow takes: a run hands over more in several. */
export const DELIVERY_BATCH_EVENTS = 100;

/**
 * What a run hands a delivery workflow as it closes (src/workflows/webhook-delivery.ts): the ids of the events, which
 * the delivery asks the run for, so that it sends only what the run gives.
 */
export const WebhookDeliveryInput = builtOnce('schemas/notification-event.WebhookDeliveryInput', () =>
  z.strictObject({ eventIds: z.array(z.string().min(1).max(2000)).min(1).max(DELIVERY_BATCH_EVENTS) }),
);

/** The run's answer, checked as any activity's result is before workflow code reads it. */
export const HandedOverEvents = builtOnce('schemas/notification-event.HandedOverEvents', () =>
  z.union([z.strictObject({ events: z.array(NotificationEvent).max(DELIVERY_BATCH_EVENTS) }), z.strictObject({ refused: z.string() })]),
);

export type NotificationEvent = z.infer<typeof NotificationEvent>;
