/** Approval events to webhooks: fire and forget, so a webhook outage never holds up or fails a run. */
import { condition, log, workflowInfo } from '@temporalio/workflow';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { NotificationEvent } from '../schemas/notification-event.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { encodeApprovalId } from '../contract/approval-id.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import { PATCHES, takesPatch } from './patches.js';
import { shownAtRoot } from './shown-at-root.js';
import { workflowIsoNow } from './workflow-clock.js';

export class RunNotifications {
  /** Numbers events within the run (carried across continue-as-new), so receivers can deduplicate. */
  #seq = 0;
  #inFlight = 0;
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
    const event: NotificationEvent = {
      id: `${workflowId}:${runId}:${++this.#seq}`,
      type,
      workflowId,
      runId,
      agent: this.#agent,
      at: workflowIsoNow(),
      approvalId: encodeApprovalId({ workflowId: rootWorkflowId, callId: `${shownIdPrefix}${approval.id}` }),
      approval,
      ...(decision && { decision }),
    };
    this.#inFlight++;
    activities.notify
      .executeWithOptions({ ...ACTIVITY_OPTIONS.notify, summary: `notify ${type}` }, [event])
      .catch((err) => log.warn('notification not delivered', { type, error: String(err) }))
      .finally(() => this.#inFlight--);
  }

  /**
   * Gives notifications still in flight a few seconds (a first attempt and a retry) before the run closes: once it
   * closes, their activities never start. The result is already decided and visible; only the close waits.
   */
  async flush(): Promise<void> {
    if (this.#inFlight > 0 && takesPatch(PATCHES.flushNotifications)) {
      await condition(() => this.#inFlight === 0, '5s', { summary: 'last notifications before closing' });
    }
  }
}
