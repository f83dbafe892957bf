/** The Markdown the Temporal UI shows as the run's current details. */
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunState } from '../schemas/run-state.js';

export function currentDetails(
  step: number,
  maxSteps: number,
  activity: string,
  pending: readonly PendingApproval[],
  carryUnfit?: RunState['carryUnfit'],
): string {
  const lines = [`**Step ${step} of ${maxSteps}** · ${activity}`];
  // Said where an operator looks first: the run is healthy, but its history grows until its calls are settled.
  if (carryUnfit) {
    lines.push(
      '',
      `**Could not continue as new** at event ${carryUnfit.historyLength}: its state was ${carryUnfit.bytes} bytes, over the ` +
        `limit of ${carryUnfit.limit} (waiting calls, queued messages and the prompt cannot be shed). It goes on in this run ` +
        'and tries again at its next step.',
    );
  }
  if (pending.length) {
    lines.push('', `**Waiting for approval (${pending.length})**`, '', '| call | tool | allowed | deadline |', '|---|---|---|---|');
    for (const p of pending) lines.push(`| \`${p.id}\` | ${p.toolName} | ${p.allowedDecisions.join(', ')} | ${p.deadline} |`);
  }
  return lines.join('\n');
}
