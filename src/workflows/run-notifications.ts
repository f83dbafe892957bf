/** Approval events to webhooks: fire and forget, so a webhook outage never holds up or fails a run. */
import { condition, log, patched, workflowInfo } from '@temporalio/workflow';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { NotificationEvent } from '../schemas/notification-event.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { notifyActivities } from './activities.js';
import type { AgentRun } from './agent-run.js';
import { workflowIsoNow } from './workflow-clock.js';

/** Added after runs were already paused: see README, "Changing workflow code". */
const FLUSH_NOTIFICATIONS_PATCH = 'flush-notifications-before-close';

export class RunNotifications {
  /** Numbers events within the run (carried across continue-as-new), so receivers can deduplicate. */
  seq = 0;
  private inFlight = 0;

  constructor(private readonly run: AgentRun) {}

  send(type: NotificationEvent['type'], approval: PendingApproval, decision?: AuditEntry): void {
    if (!this.run.snapshot?.notify) return;
    const { workflowId, runId } = workflowInfo();
    const event: NotificationEvent = {
      id: `${workflowId}:${runId}:${++this.seq}`,
      type,
      workflowId,
      runId,
      agent: this.run.agent,
      at: workflowIsoNow(),
      approval,
      ...(decision && { decision }),
    };
    this.inFlight++;
    notifyActivities.notify
      .executeWithOptions(
        {
          startToCloseTimeout: '30s',
          scheduleToCloseTimeout: '10m',
          retry: { initialInterval: '2s', maximumAttempts: 6 },
          summary: `notify ${type}`,
        },
        [event],
      )
      .catch((err) => log.warn('notification not delivered', { type, error: String(err) }))
      .finally(() => this.inFlight--);
  }

  /**
   * Gives notifications still in flight a few seconds (a first attempt and a retry) before the run closes: once it
   * closes, their activities never start. The result is already decided and visible; only the close waits.
   */
  async flush(): Promise<void> {
    if (this.inFlight > 0 && patched(FLUSH_NOTIFICATIONS_PATCH)) {
      await condition(() => this.inFlight === 0, '5s', { summary: 'last notifications before closing' });
    }
  }
}
