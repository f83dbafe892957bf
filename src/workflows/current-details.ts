/** The Markdown the Temporal UI shows as the run's current details. */
import type { PendingApproval } from '../schemas/pending-approval.js';

export function currentDetails(step: number, maxSteps: number, activity: string, pending: readonly PendingApproval[]): string {
  const lines = [`**Step ${step} of ${maxSteps}** · ${activity}`];
  if (pending.length) {
    lines.push('', `**Waiting for approval (${pending.length})**`, '', '| call | tool | allowed | deadline |', '|---|---|---|---|');
    for (const p of pending) lines.push(`| \`${p.id}\` | ${p.toolName} | ${p.allowedDecisions.join(', ')} | ${p.deadline} |`);
  }
  return lines.join('\n');
}
