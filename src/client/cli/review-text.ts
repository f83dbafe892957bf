/**
 * What `hitl review` shows of a pending call before it asks for a decision: what the call is, who proposed it, why
 * it is shown again, and the world its tool looked at. An approver at a terminal decides on the same facts as one
 * in the inbox; the world is what the run checks again before the tool runs. Everything from outside goes through
 * terminalText, and its later lines are indented (prose's marked), so none of it can pass for the CLI's own headings
 * or for the arguments.
 */
import type { PendingApproval } from '../../schemas/pending-approval.js';
import { style, until } from './output.js';
import { terminalText } from './terminal-text.js';

const json = (value: unknown) => terminalText(JSON.stringify(value ?? null, null, 2), { multiline: true, indent: '  ' });
/**
 * Prose from outside over several lines (a description a template filled with the model's words, why a call waits
 * again): its later lines are marked, so none passes for the arguments' JSON, whose inner lines are indented too.
 */
const prose = (text: string) => terminalText(text, { multiline: true, indent: '  │ ' });
/** How much of a rule is shown (the inbox shows as much). */
const RULE_CHARS = 1000;

export function reviewText(p: PendingApproval, position: { index: number; of: number }): string {
  const lines = [
    `${style.bold(`[${position.index}/${position.of}] ${terminalText(p.toolName)}`)}  call ${terminalText(p.id)}  due in ${until(p.deadline)}`,
    prose(p.description),
    // In the policy's words (as the inbox says it): which condition held, or how the run read the arguments.
    // Cut: a rule quotes the policy's conditions, and may name an argument by its key.
    `Waits by the rule ${terminalText(p.rule, { maxChars: RULE_CHARS, seeWhole: 'hitl pending --json' })}`,
  ];
  if (p.proposedBy) {
    const of = `${terminalText(p.proposedBy.toolName)} (${terminalText(p.proposedBy.callId)})`;
    // Without an approver: an edit that waits again for a world nobody saw (`repended` says whose).
    lines.push(
      p.proposedBy.approver ? `Proposed by ${terminalText(p.proposedBy.approver)}, by an edit of ${of}.` : `Written by an edit of ${of}.`,
    );
  }
  if (p.preparing) lines.push('Still being prepared: what its tool depends on is looked up first; decide in a moment.');
  if (p.repended) {
    const approved = p.repended.approvedBy ? `, approved by ${terminalText(p.repended.approvedBy)}` : '';
    lines.push(`Shown again (was ${terminalText(p.repended.previousId)}${approved}): ${prose(p.repended.message)}`);
  }
  lines.push('', `Arguments:\n${terminalText(JSON.stringify(p.args, null, 2), { multiline: true })}`);
  if (p.repended?.worldBefore !== undefined) lines.push(`What it depended on when it was approved:\n  ${json(p.repended.worldBefore)}`);
  if (p.world !== undefined) lines.push(`What it depends on (looked at again before it runs):\n  ${json(p.world)}`);
  return `\n${lines.join('\n')}\n`;
}
