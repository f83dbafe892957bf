/**
 * Webhook events a run was still delivering when it closed, delivered after it. A run's notifications are activities
 * of its own, and a closed run's activities never start again: a receiver that was down as a run completed lost the
 * run's last events after one attempt. The run hands them over instead (run-notifications.ts): this workflow, its
 * child, abandoned to live on, gives each event the retries a notification gets and then completes.
 *
 * It is handed event ids, not events, and sends what the run that started it answers for them (a query, by an
 * activity): started any other way, by anyone who can start workflows, even as the child of a workflow of their own,
 * it would otherwise have the worker sign and send any event they wrote to every receiver.
 */
import { ApplicationFailure, log, workflowInfo } from '@temporalio/workflow';
import { z } from 'zod';
import { HandedOverEvents, WebhookDeliveryInput } from '../schemas/notification-event.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import { summaryText } from './summary-text.js';

export const WEBHOOK_DELIVERY_WORKFLOW_TYPE = 'webhookDeliveryWorkflow';

const refuse = (why: string) => ApplicationFailure.nonRetryable(`Refused to deliver: ${why}.`, 'InvalidDeliveryInput');

export async function webhookDeliveryWorkflow(raw: unknown): Promise<{ delivered: number; failed: number }> {
  const parsed = WebhookDeliveryInput.safeParse(raw);
  if (!parsed.success) throw refuse(`the input is not a list of event ids: ${z.prettifyError(parsed.error)}`);
  const { parent } = workflowInfo();
  if (!parent) throw refuse('it was not started by the run whose events they are');
  const answer = HandedOverEvents.safeParse(
    await activities.confirmHandedOverEvents.executeWithOptions(
      { ...ACTIVITY_OPTIONS.confirmHandover, summary: summaryText(`the events ${parent.workflowId} handed over`) },
      [{ workflowId: parent.workflowId, runId: parent.runId, eventIds: parsed.data.eventIds }],
    ),
  );
  if (!answer.success) throw refuse(`the run's answer is not a list of its events: ${z.prettifyError(answer.error)}`);
  if ('refused' in answer.data) throw refuse(answer.data.refused);
  const { events } = answer.data;
  const missing = parsed.data.eventIds.filter((id) => !events.some((e) => e.id === id));
  if (missing.length > 0) log.warn('the run handed over none of these events', { events: missing });
  const outcomes = await Promise.allSettled(
    events.map((event) =>
      activities.notify.executeWithOptions({ ...ACTIVITY_OPTIONS.notify, summary: `notify ${event.type} (after the run closed)` }, [event]),
    ),
  );
  const failed = outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [events[i]!.id] : []));
  if (failed.length > 0) log.warn('notifications not delivered', { events: failed });
  return { delivered: outcomes.length - failed.length, failed: failed.length };
}
