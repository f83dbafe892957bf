/**
 * The approver ladder: a call that waits long enough is opened to the next tier of approvers (who join the ones
 * before), with a notification at each step. Each step is a durable timer named in the Temporal UI
 * (`escalation · <tool> · <id> · to <approvers>`); a decision, a new announcement or the deadline cancels the rest.
 */
import { CancellationScope, isCancellation, sleep } from '@temporalio/workflow';
import type { CallRecord } from '../schemas/call-record.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { AgentRun } from './agent-run.js';
import { workflowNow } from './workflow-clock.js';
import { summaryText } from './summary-text.js';

/** Starts the timers of the tiers not reached yet; undefined when the call has no ladder left to climb. */
export function startEscalations(run: AgentRun, record: CallRecord, announced: PendingApproval): CancellationScope | undefined {
  const ladder = announced.escalations;
  if (!ladder?.some((tier) => !tier.reached)) return undefined;
  const scope = new CancellationScope();
  scope
    .run(async () => {
      for (const [index, tier] of ladder.entries()) {
        if (tier.reached) continue;
        const wait = Date.parse(tier.at) - workflowNow();
        if (wait > 0)
          await sleep(wait, {
            summary: summaryText(`escalation · ${announced.toolName} · ${announced.id} · to ${tier.approvers.join(', ')}`),
          });
        if (record.resolution || record.pending !== announced) return;
        escalate(run, record, index);
      }
    })
    .catch((err) => {
      if (!isCancellation(err)) throw err;
    });
  return scope;
}

function escalate(run: AgentRun, record: CallRecord, index: number): void {
  run.book.escalate(record, index);
  const pending = record.pending!;
  const tier = pending.escalations![index]!;
  run.events.noted(
    run.audit.append({
      via: 'run',
      outcome: 'noted',
      event: 'escalated',
      id: pending.id,
      toolName: pending.toolName,
      message: `Escalated (tier ${index + 1}): ${tier.approvers.join(', ')} may decide it too.`,
    }),
  );
  run.notifications.send('approval.escalated', pending);
  run.refresh();
}
