/** The Markdown the Temporal UI shows as the run's current details. */
import { carryUnfitNotice } from '../contract/carry-unfit-notice.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunState } from '../schemas/run-state.js';

/** @param lastStep the step the run's turn stops at (a session's steps count on across its turns) */
export function currentDetails(
  step: number,
  lastStep: number,
  activity: string,
  pending: readonly PendingApproval[],
  carryUnfit?: RunState['carryUnfit'],
): string {
  const lines = [`**Step ${step} of ${lastStep}** · ${activity}`];
  // Said where an operator looks first: the run is healthy, but its history grows until its calls are settled.
  if (carryUnfit) lines.push('', `**${carryUnfitNotice(carryUnfit)}**`);
  if (pending.length) {
    lines.push('', `**Waiting for approval (${pending.length})**`, '', '| call | tool | allowed | deadline |', '|---|---|---|---|');
    for (const p of pending) lines.push(`| \`${p.id}\` | ${p.toolName} | ${p.allowedDecisions.join(', ')} | ${p.deadline} |`);
  }
  return lines.join('\n');
}
