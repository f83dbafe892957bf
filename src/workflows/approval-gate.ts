/**
 * A gated call waits on its own for a decision or its deadline, under a named durable timer; reminders go out
 * before the deadline and the approver ladder is climbed (src/workflows/escalation.ts) while it still waits. A call
 * announced again (an edit proposed into another tool) waits anew, under the new announcement's deadline, once what
 * approvers see of it has been looked up (src/workflows/proposal-preparation.ts).
 */
import { CancellationScope, condition, isCancellation, sleep } from '@temporalio/workflow';
import type { CallRecord, Resolution } from '../schemas/call-record.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { AgentRun } from './agent-run.js';
import { startEscalations } from './escalation.js';
import { prepareProposal, proposalUnprepared } from './proposal-preparation.js';
import { PATCHES, takesPatch } from './patches.js';
import { timeOut } from './run-decisions.js';
import { workflowNow } from './workflow-clock.js';
import { summaryText } from './summary-text.js';

export async function awaitDecision(run: AgentRun, record: CallRecord): Promise<Resolution> {
  for (;;) {
    if (record.resolution) return record.resolution;
    if (proposalUnprepared(record)) {
      await prepareProposal(run, record);
      continue;
    }
    const announced = record.pending!;
    const decided = await waitFor(run, record, announced);
    // Announced again meanwhile (a proposal): wait for the new announcement.
    if (record.pending !== announced && !record.resolution) continue;
    if (!decided && !record.resolution) timeOut(run, record);
    return record.resolution!;
  }
}

async function waitFor(run: AgentRun, record: CallRecord, announced: PendingApproval): Promise<boolean> {
  const deadline = Date.parse(announced.deadline);
  const reminders = run.snapshot.notify && record.gate!.remindersMs.length ? startReminders(run, record, announced, deadline) : undefined;
  const escalations = startEscalations(run, record, announced);
  const answered = () => record.resolution !== undefined || record.pending !== announced;
  const summary = `approval · ${announced.toolName} · ${announced.id}`;
  let deadlineTimer: CancellationScope | undefined;
  try {
    const remaining = deadline - workflowNow();
    if (remaining <= 0) return false;
    if (!takesPatch(PATCHES.toolFirst)) return await condition(answered, remaining, { summary });
    deadlineTimer = new CancellationScope();
    const expired = deadlineTimer.run(() => sleep(remaining, { summary })).then(() => false);
    return await Promise.race([condition(answered).then(() => true), expired]);
  } finally {
    // A decided call's tool starts first; its timers are cancelled with the run's next listings (run-visibility.ts).
    run.visibility.withListings(() => {
      deadlineTimer?.cancel();
      reminders?.cancel();
      escalations?.cancel();
    });
  }
}

function startReminders(run: AgentRun, record: CallRecord, announced: PendingApproval, deadline: number): CancellationScope {
  const scope = new CancellationScope();
  const times = [...record.gate!.remindersMs].sort((a, b) => b - a).map((before) => deadline - before);
  scope
    .run(async () => {
      for (const at of times) {
        const wait = at - workflowNow();
        if (wait <= 0) continue;
        await sleep(wait, { summary: summaryText(`reminder · ${announced.toolName} · ${announced.id}`) });
        if (!record.resolution && record.pending === announced) run.notifications.send('approval.reminder', announced);
      }
    })
    .catch((err) => {
      if (!isCancellation(err)) throw err;
    });
  return scope;
}
