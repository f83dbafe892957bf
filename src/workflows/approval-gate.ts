/**
 * A gated call waits on its own for a decision or its deadline, under a named durable timer; reminders go out
 * before the deadline while it still waits.
 */
import { CancellationScope, condition, isCancellation, sleep } from '@temporalio/workflow';
import type { AgentRun } from './agent-run.js';
import type { CallRecord, Resolution } from '../schemas/call-record.js';
import { workflowNow } from './workflow-clock.js';
import { timeOut } from './run-decisions.js';

export async function awaitDecision(run: AgentRun, record: CallRecord): Promise<Resolution> {
  if (record.resolution) return record.resolution;
  const deadline = Date.parse(record.pending!.deadline);
  const reminders = run.snapshot?.notify && record.gate!.remindersMs.length ? startReminders(run, record, deadline) : undefined;
  try {
    const remaining = deadline - workflowNow();
    const decided =
      remaining > 0 &&
      (await condition(() => record.resolution !== undefined, remaining, {
        summary: `approval · ${record.toolName} · ${record.id}`,
      }));
    if (!decided && !record.resolution) timeOut(run, record);
  } finally {
    reminders?.cancel();
  }
  return record.resolution!;
}

function startReminders(run: AgentRun, record: CallRecord, deadline: number): CancellationScope {
  const scope = new CancellationScope();
  const times = [...record.gate!.remindersMs].sort((a, b) => b - a).map((before) => deadline - before);
  scope
    .run(async () => {
      for (const at of times) {
        const wait = at - workflowNow();
        if (wait <= 0) continue;
        await sleep(wait, { summary: `reminder · ${record.toolName} · ${record.id}` });
        if (!record.resolution) run.notifications.send('approval.reminder', record.pending!);
      }
    })
    .catch((err) => {
      if (!isCancellation(err)) throw err;
    });
  return scope;
}
