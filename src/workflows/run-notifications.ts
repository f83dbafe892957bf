/**
 * Approval events to webhooks: fire and forget, so a webhook outage never holds up or fails a run. What is still being
 * delivered when the run closes is handed to a delivery workflow that outlives it (webhook-delivery.ts).
 */
import { condition, log, ParentClosePolicy, startChild, workflowInfo } from '@temporalio/workflow';
import { utf8Length } from '../bounds/truncate.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { NotificationEvent } from '../schemas/notification-event.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { encodeApprovalId } from '../contract/approval-id.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import { PATCHES, takesPatch } from './patches.js';
import { shownAtRoot } from './shown-at-root.js';
import { WEBHOOK_DELIVERY_WORKFLOW_TYPE } from './webhook-delivery.js';
import { workflowIsoNow } from './workflow-clock.js';

export class RunNotifications {
  /** Numbers events within the run (carried across continue-as-new), so receivers can deduplicate. */
  #seq = 0;
  /** Events being delivered, by their number: what a closing run hands over. */
  readonly #inFlight = new Map<number, NotificationEvent>();
  /** Webhooks are configured for this run's agent (recorded when the run started). */
  #enabled = false;
  #agent = '';

  get seq(): number {
    return this.#seq;
  }

  /** @param seq the last event number of earlier runs of this workflow id (continue-as-new) */
  configure(enabled: boolean, agent: string, seq = 0): void {
    this.#enabled = enabled;
    this.#agent = agent;
    this.#seq = seq;
  }

  send(type: NotificationEvent['type'], approval: PendingApproval, decision?: AuditEntry): void {
    if (!this.#enabled) return;
    const { workflowId, runId } = workflowInfo();
    const { rootWorkflowId, shownIdPrefix } = shownAtRoot();
    const seq = ++this.#seq;
    const event: NotificationEvent = {
      id: `${workflowId}:${runId}:${seq}`,
      type,
      workflowId,
      runId,
      agent: this.#agent,
      at: workflowIsoNow(),
      approvalId: encodeApprovalId({ workflowId: rootWorkflowId, callId: `${shownIdPrefix}${approval.id}` }),
      approval,
      ...(decision && { decision }),
    };
    this.#inFlight.set(seq, event);
    activities.notify
      .executeWithOptions({ ...ACTIVITY_OPTIONS.notify, summary: `notify ${type}` }, [event])
      .catch((err) => log.warn('notification not delivered', { type, error: String(err) }))
      .finally(() => this.#inFlight.delete(seq));
  }

  /**
   * Gives notifications still in flight a few seconds (a first attempt and a retry) before the run closes: once it
   * closes, their activities never start. The result is already decided and visible; only the close waits. What is
   * still in flight then goes to delivery workflows that outlive the run (patch webhooksOutliveRun), each started
   * before the run closes; the attempt in flight may still land too, so a receiver can get an event twice and
   * deduplicates by its id, as for any retry.
   */
  async flush(): Promise<void> {
    if (this.#inFlight.size > 0 && takesPatch(PATCHES.flushNotifications)) {
      await condition(() => this.#inFlight.size === 0, '5s', { summary: 'last notifications before closing' });
    }
    if (this.#inFlight.size === 0 || !takesPatch(PATCHES.webhooksOutliveRun)) return;
    for (const events of batches([...this.#inFlight.values()])) {
      const last = events.at(-1)!.id.split(':').at(-1);
      await startChild(WEBHOOK_DELIVERY_WORKFLOW_TYPE, {
        workflowId: `${workflowInfo().workflowId}/webhooks-${last}`,
        args: [{ events }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        staticSummary: `webhook events ${events[0]!.id} to ${events.at(-1)!.id}, after the run closed`,
      }).catch((err) => log.warn('notifications not handed over', { events: events.map((e) => e.id), error: String(err) }));
    }
  }
}

/** Well under a payload's 2 MB: an event carries its call's arguments, and a decision's before and after. */
const BATCH_BYTES = 1_000_000;
const BATCH_EVENTS = 100;

/** Events in batches a delivery workflow takes: at most 100, and about 1 MB, each (one larger event alone). */
function batches(events: NotificationEvent[]): NotificationEvent[][] {
  const out: NotificationEvent[][] = [];
  let bytes = 0;
  for (const event of events) {
    const size = utf8Length(JSON.stringify(event));
    const current = out.at(-1);
    if (current && current.length < BATCH_EVENTS && bytes + size <= BATCH_BYTES) {
      current.push(event);
      bytes += size;
    } else {
      out.push([event]);
      bytes = size;
    }
  }
  return out;
}
