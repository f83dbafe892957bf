/** What the CLI says of a decision the run applied: one line per call, for `hitl approve|edit|…` and `hitl review`. */
import type { AppliedDecision } from '../../schemas/decision.js';
import type { PendingApproval } from '../../schemas/pending-approval.js';
import { style } from './output.js';
import { terminalText } from './terminal-text.js';

/** `shown`: the call as it waited before the decision, when the CLI read it. */
export function appliedLine(a: AppliedDecision, shown: PendingApproval | undefined): string {
  return (
    `${style.green('✓')} ${a.type} ${terminalText(a.toolName)} (${terminalText(a.id)})${a.approver ? ` by ${terminalText(a.approver)}` : ''}` +
    `${a.proposedAs ? `: now waits for that tool's approvers as call ${terminalText(a.proposedAs)}` : ''}` +
    `${waitsForMore(a) ? `: ${a.quorum!.approvals} of ${a.quorum!.required} approvals, it waits for the rest` : ''}` +
    checkedBeforeItRuns(a, shown)
  );
}

const waitsForMore = (a: AppliedDecision) => Boolean(a.quorum && a.quorum.approvals < a.quorum.required);

/**
 * The run answers an approval or an edit before it looks at the call's world again (src/workflows/consent.ts): a
 * call whose world changed, or whose approval lapsed before its tool started, waits again after the ✓. Said for the
 * calls where that can happen, as the call was shown.
 */
function checkedBeforeItRuns(applied: AppliedDecision, call: PendingApproval | undefined): string {
  const runs = (applied.type === 'approve' || applied.type === 'edit') && !applied.proposedAs;
  if (!call || !runs || waitsForMore(applied)) return '';
  const conditions = [
    ...(call.world !== undefined ? ['what it depends on is still as shown'] : []),
    ...(call.validFor ? [`its tool starts within ${terminalText(call.validFor)}`] : []),
  ];
  return conditions.length ? `: it runs if ${conditions.join(' and ')}; otherwise it waits again (\`hitl pending\`)` : '';
}
