import { z } from 'zod';
import { AuditEntry } from './audit-entry.js';
import { PendingApproval } from './pending-approval.js';

export const NOTIFICATION_TYPES = [
  'approval.requested',
  'approval.reminder',
  'approval.escalated',
  'approval.decided',
  'approval.timed_out',
] as const;

/** The JSON body POSTed to webhooks. */
export const NotificationEvent = z.object({
  /** Unique per event (`<workflowId>:<runId>:<seq>`): receivers deduplicate on it. */
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  workflowId: z.string(),
  runId: z.string(),
  agent: z.string(),
  at: z.iso.datetime(),
  approval: PendingApproval,
  /** For `approval.decided`, `approval.timed_out` and `approval.escalated`. */
  decision: AuditEntry.optional(),
});

export type NotificationEvent = z.infer<typeof NotificationEvent>;
