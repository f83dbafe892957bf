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

/** The events a run hands over as it closes, to be delivered after it (src/workflows/webhook-delivery.ts). */
export const WebhookDeliveryInput = builtOnce('schemas/notification-event.WebhookDeliveryInput', () =>
  z.strictObject({ events: z.array(NotificationEvent).min(1).max(100) }),
);

export type NotificationEvent = z.infer<typeof NotificationEvent>;
