/**
 * Approval events to webhooks: fire and forget, so a webhook outage never holds up or fails a run. At most
 * MAX_NOTIFICATIONS_IN_FLIGHT are delivered at once and the rest wait their turn, in order (patch notificationsBounded).
 * What is still being delivered, or waiting, when the run closes is handed to a delivery workflow that outlives it
 * (webhook-delivery.ts).
 */
import { condition, log, ParentClosePolicy, startChild, workflowInfo } from '@temporalio/workflow';
import { utf8Length } from '../bounds/truncate.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import { DELIVERY_BATCH_EVENTS, type NotificationEvent } from '../schemas/notification-event.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { encodeApprovalId } from '../contract/approval-id.js';
import { TEMPORAL_ID_MAX_BYTES } from '../contract/limits.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import { PATCHES, takesPatch } from './patches.js';
import { shownAtRoot } from './shown-at-root.js';
import { WEBHOOK_DELIVERY_WORKFLOW_TYPE } from './webhook-delivery.js';
import { workflowIsoNow } from './workflow-clock.js';
import { summaryText } from './summary-text.js';

/**
 * Each event delivered is an activity until it lands or gives up (up to 10 minutes, ACTIVITY_OPTIONS.notify), and the
 * server fails every workflow task of a run with 2,000 pending activities (`limit.numPendingActivities.error`), those
 * that start tools included. This leaves the run's own activities room.
 */
export const MAX_NOTIFICATIONS_IN_FLIGHT = 500;
/**
 * Events waiting for a delivery to free up are held in the run's memory. Past either bound the receiver is so far
 * behind that holding more would only grow the run: an event is dropped with a warning, and its number is skipped.
 */
const MAX_NOTIFICATIONS_WAITING = 5_000;
const MAX_WAITING_BYTES = 16_000_000;

export class RunNotifications {
  /** Numbers events within the run (carried across continue-as-new), so receivers can deduplicate. */
  #seq = 0;
  /** Events being delivered, by their number: what a closing run hands over. */
  readonly #inFlight = new Map<number, NotificationEvent>();
  /** Events waiting for a delivery to free up, oldest first, with their size: handed over too at the close. */
  readonly #waiting: { seq: number; event: NotificationEvent; bytes: number }[] = [];
  #waitingBytes = 0;
  /** Events handed to delivery workflows as the run closed, by id: what their query asks this run for. */
  readonly #handedOver = new Map<string, NotificationEvent>();
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
    // As sent: the call book changes a pending call in place later (approvals, escalations), and an event handed
    // over at the close must be the one its receivers may already have had under the same id.
    const text = JSON.stringify(event);
    if (this.#inFlight.size < MAX_NOTIFICATIONS_IN_FLIGHT || !takesPatch(PATCHES.notificationsBounded)) {
      this.#inFlight.set(seq, JSON.parse(text) as NotificationEvent);
      return this.#deliver(seq, event);
    }
    const bytes = utf8Length(text);
    if (this.#waiting.length >= MAX_NOTIFICATIONS_WAITING || this.#waitingBytes + bytes > MAX_WAITING_BYTES) {
      log.warn('notification dropped: too many waiting for a slow webhook', { type, id: event.id, waiting: this.#waiting.length });
      return;
    }
    this.#waiting.push({ seq, event: JSON.parse(text) as NotificationEvent, bytes });
    this.#waitingBytes += bytes;
  }

  /** Delivers an event already counted in flight; when it lands or gives up, the oldest waiting one goes out. */
  #deliver(seq: number, event: NotificationEvent): void {
    activities.notify
      .executeWithOptions({ ...ACTIVITY_OPTIONS.notify, summary: `notify ${event.type}` }, [event])
      .catch((err) => log.warn('notification not delivered', { type: event.type, error: String(err) }))
      .finally(() => {
        this.#inFlight.delete(seq);
        const next = this.#waiting.shift();
        if (!next) return;
        this.#waitingBytes -= next.bytes;
        this.#inFlight.set(next.seq, next.event);
        this.#deliver(next.seq, next.event);
      });
  }

  /** Events not yet landed: being delivered, or waiting their turn. */
  get #undelivered(): number {
    return this.#inFlight.size + this.#waiting.length;
  }

  /** Before the run closes: what is still in flight gets a few seconds, then goes to a delivery that outlives the run. */
  async flush(): Promise<void> {
    await this.settle();
    await this.handOver();
  }

  /**
   * Gives notifications still in flight a few seconds (a first attempt and a retry) before the run closes: once it
   * closes, their activities never start. The result is already decided and visible; only the close waits.
   */
  async settle(): Promise<void> {
    if (this.#undelivered > 0 && takesPatch(PATCHES.flushNotifications)) {
      await condition(() => this.#undelivered === 0, '5s', { summary: 'last notifications before closing' });
    }
  }

  /**
   * Hands what is still in flight to delivery workflows that outlive the run (patch webhooksOutliveRun), each started
   * before the run closes; only once the close is certain (a continue-as-new may still decline). The attempt in
   * flight may land too, so a receiver can get an event twice and deduplicates by its id, as for any retry.
   */
  async handOver(): Promise<void> {
    if (this.#undelivered === 0 || !takesPatch(PATCHES.webhooksOutliveRun)) return;
    const waiting = this.#waiting.splice(0).map(({ seq, event }): [number, NotificationEvent] => [seq, event]);
    this.#waitingBytes = 0;
    for (const events of batches([...this.#inFlight.entries(), ...waiting])) {
      for (const [seq, event] of events) {
        this.#handedOver.set(event.id, event);
        this.#inFlight.delete(seq);
      }
      const ids = events.map(([, event]) => event.id);
      const workflowId = `${workflowInfo().workflowId}/webhooks-${events.at(-1)![0]}`;
      // Asked of the server, an id over its limit failed the workflow task on every retry (TEMPORAL_ID_MAX_BYTES):
      // a run whose own id is that long keeps only the attempts in flight.
      if (utf8Length(workflowId) > TEMPORAL_ID_MAX_BYTES) {
        log.warn('notifications not handed over: the delivery workflow id would be too long', { events: ids });
        continue;
      }
      await startChild(WEBHOOK_DELIVERY_WORKFLOW_TYPE, {
        workflowId,
        args: [{ eventIds: ids }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        staticSummary: summaryText(`webhook events ${ids[0]} to ${ids.at(-1)}, after the run closed`),
      }).catch((err) => log.warn('notifications not handed over', { events: ids, error: String(err) }));
    }
  }

  /** The events with these ids that this run handed over (for its delivery workflows, handedOverEventsQuery). */
  handedOver(ids: readonly string[]): NotificationEvent[] {
    // Each once, and no more than a delivery takes: anyone may ask, and 2 MB of one id repeated asked for a copy of
    // its event for each, hundreds of megabytes to build for an answer the server then refuses.
    const asked = [...new Set(Array.isArray(ids) ? ids : [])].slice(0, DELIVERY_BATCH_EVENTS);
    return asked.flatMap((id) => this.#handedOver.get(id) ?? []);
  }
}

/**
 * Well under a query answer's and a payload's 2 MB: the delivery asks for a batch's events in one query, and an event
 * carries its call's arguments, and a decision's before and after.
 */
const BATCH_BYTES = 1_000_000;

/** Events, by their number, in batches a delivery takes: at most DELIVERY_BATCH_EVENTS and about 1 MB each (one larger event alone). */
function batches(events: [number, NotificationEvent][]): [number, NotificationEvent][][] {
  const out: [number, NotificationEvent][][] = [];
  let bytes = 0;
  for (const entry of events) {
    const size = utf8Length(JSON.stringify(entry[1]));
    const current = out.at(-1);
    if (current && current.length < DELIVERY_BATCH_EVENTS && bytes + size <= BATCH_BYTES) {
      current.push(entry);
      bytes += size;
    } else {
      out.push([entry]);
      bytes = size;
    }
  }
  return out;
}
