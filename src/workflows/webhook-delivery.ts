/**
 * Webhook events a run was still delivering when it closed, delivered after it. A run's notifications are activities
 * of its own, and a closed run's activities never start again: a receiver that was down as a run completed lost the
 * run's last events after one attempt. The run hands them over instead (run-notifications.ts): this workflow, its
 * child, abandoned to live on, gives each event the retries a notification gets and then completes.
 *
 * Only as that child: every event must be its parent's own. Started straight through Temporal, it would have the
 * worker sign and send any event a caller wrote to every receiver.
 */
import { ApplicationFailure, log, workflowInfo } from '@temporalio/workflow';
import { z } from 'zod';
import { WebhookDeliveryInput } from '../schemas/notification-event.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';

export const WEBHOOK_DELIVERY_WORKFLOW_TYPE = 'webhookDeliveryWorkflow';

export async function webhookDeliveryWorkflow(raw: unknown): Promise<{ delivered: number; failed: number }> {
  const parsed = WebhookDeliveryInput.safeParse(raw);
  if (!parsed.success)
    throw ApplicationFailure.nonRetryable(`Invalid webhook delivery: ${z.prettifyError(parsed.error)}`, 'InvalidDeliveryInput');
  const { parent } = workflowInfo();
  const foreign = parsed.data.events.find((e) => e.workflowId !== parent?.workflowId || e.runId !== parent?.runId);
  if (foreign) {
    const why = parent ? `not an event of its parent run (${parent.workflowId})` : 'it was not started by the run whose events they are';
    throw ApplicationFailure.nonRetryable(`Refused to deliver ${foreign.id}: ${why}.`, 'InvalidDeliveryInput');
  }
  const outcomes = await Promise.allSettled(
    parsed.data.events.map((event) =>
      activities.notify.executeWithOptions({ ...ACTIVITY_OPTIONS.notify, summary: `notify ${event.type} (after the run closed)` }, [event]),
    ),
  );
  const failed = outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [parsed.data.events[i]!.id] : []));
  if (failed.length > 0) log.warn('notifications not delivered', { events: failed });
  return { delivered: outcomes.length - failed.length, failed: failed.length };
}
