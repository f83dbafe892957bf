/** Human-readable tables by default, JSON for scripts; colour only on a terminal (picocolors checks). */
import Table from 'cli-table3';
import pc from 'picocolors';
import { codePointEscape, revealHidden } from '../../contract/hidden-characters.js';
import { truncateChars } from '../../bounds/truncate.js';
import type { RetryingActivity } from '../../schemas/retrying-activity.js';
import type { RunProblem } from '../../schemas/run-problem.js';
import type { SessionEnd } from '../../schemas/session.js';
import { terminalText } from './terminal-text.js';

export interface Output {
  json: boolean;
}

export function print(out: Output, value: unknown, human: () => string): void {
  process.stdout.write(out.json ? `${jsonText(value, 2)}\n` : `${human()}\n`);
}

/**
 * JSON as --json prints it: each hidden character (a bidi control such as U+202E, what prints as nothing) written as
 * JSON's own escape, which parses to the same value, so JSON read on a terminal cannot show other text than it holds.
 */
export function jsonText(value: unknown, indent?: number): string {
  // A raw newline in JSON text is its layout (JSON.stringify escapes those in strings): it stays.
  return revealHidden(JSON.stringify(value, null, indent), (c) => (c === '\n' ? c : codePointEscape(c)));
}

export function table(head: string[], rows: (string | number | undefined)[][]): string {
  const t = new Table({ head: head.map((h) => pc.bold(h)), style: { head: [], border: [] }, wordWrap: true });
  t.push(...rows.map((row) => row.map((cell) => (cell === undefined ? '' : String(cell)))));
  return t.toString();
}

export function until(deadline: string, now = Date.now()): string {
  const ms = Date.parse(deadline) - now;
  return ms <= 0 ? pc.red('overdue') : durationText(ms);
}

/** A span as durations are written (`30s`, `15m`, `2h`, `3d`), in the largest unit it rounds to at least 1 of. */
export function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${Math.max(1, seconds)}s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(ms / 3_600_000);
  return hours < 48 ? `${hours}h` : `${Math.round(ms / 86_400_000)}d`;
}

export const style = pc;

/** Our activity types, as a reader names what they do. */
const ACTIVITY_WORDS: Record<string, string> = { callModel: 'the model call', executeTool: 'the tool call' };

/** "the model call: attempt 3 of 10": what is retried, and how far. */
function retryingWhat(r: RetryingActivity): string {
  const what = ACTIVITY_WORDS[r.activity] ?? `activity ${terminalText(r.activity)}`;
  return `${what}: attempt ${r.attempt}${r.maximumAttempts ? ` of ${r.maximumAttempts}` : ''}`;
}

/** What `show` prints under a run's status line for each activity that failed and is being tried again. */
/** A finished run's status, with how its session ended: `Ended (end requested: by sam over HTTP)`. */
export function outcomeText(status: string, ended: SessionEnd | undefined): string {
  if (!ended) return terminalText(status);
  const how = ended.by === 'request' ? `end requested${ended.reason ? `: ${ended.reason}` : ''}` : (ended.reason ?? 'idle');
  return `${terminalText(status)} (${terminalText(how)})`;
}

export function retryingNotice(retrying: RetryingActivity[]): string[] {
  return retrying.map((r) => {
    const next = r.nextAttemptAt ? `, next at ${r.nextAttemptAt}` : '';
    return pc.yellow(`Retrying ${retryingWhat(r)}${next}. Last failure: ${terminalText(r.lastFailure)}`);
  });
}

/** What `runs` adds to a run's status while it retries: the first thing it retries, and how many more. */
export function retryingCell(retrying: RetryingActivity[]): string {
  const more = retrying.length > 1 ? ` (+${retrying.length - 1} more)` : '';
  return pc.yellow(`retrying ${retryingWhat(retrying[0]!)}${more}`);
}

/** What `show` and `pending` print above a stuck run: what is wrong, since when, the failure and what to do. */
export function stuckNotice(problem: RunProblem): string[] {
  const what =
    problem.kind === 'no_worker' ? 'no worker polls its task queue' : `its workflow task keeps failing (${problem.attempts} attempts)`;
  return [
    pc.red(pc.bold(`STUCK: ${what}`)),
    `Since: ${problem.since}`,
    // Deeper than the advice's "  - ": a failure's later lines cannot pass for advice.
    ...(problem.failure ? [`Failure: ${terminalText(problem.failure, { multiline: true, indent: '    │ ' })}`] : []),
    'What to do:',
    // The advice names the run: its workflow id is the starter's to choose.
    ...problem.advice.map((a) => `  - ${terminalText(a)}`),
    pc.yellow('Decisions cannot be taken until the run is unstuck; below is what it last published.'),
    '',
  ];
}

/**
 * Who decides a pending call, in a table cell: who proposed it, quorum progress, the reviewer's word, the escalation
 * reached, why it waits again.
 */
export function whoDecidesCell(p: {
  requiredApprovals?: number;
  approvals?: { approver: string }[];
  review?: { reviewer: string; verdict: string };
  escalations?: { approvers: string[]; reached: boolean }[];
  repended?: { reason: string };
  proposedBy?: { approver?: string; callId: string; toolName: string };
}): string {
  const parts: string[] = [];
  // Not the model's call: a person wrote it by an edit (or at a breakpoint), and may not approve it themselves.
  if (p.proposedBy) {
    const { approver, callId, toolName } = p.proposedBy;
    const how = toolName.startsWith('breakpoint:') ? `at ${terminalText(callId)}` : `by an edit of ${terminalText(callId)}`;
    parts.push(`proposed by ${terminalText(approver ?? 'someone unnamed')} ${how}`);
  }
  if (p.requiredApprovals) {
    const who = p.approvals?.map((a) => terminalText(a.approver)).join(', ');
    parts.push(`${p.approvals?.length ?? 0}/${p.requiredApprovals} approvals${who ? ` (${who})` : ''}`);
  }
  if (p.review) parts.push(`reviewer ${terminalText(p.review.reviewer)}: ${terminalText(p.review.verdict)}`);
  const reached = p.escalations?.filter((e) => e.reached).flatMap((e) => e.approvers);
  if (reached?.length) parts.push(`escalated to ${terminalText(reached.join(', '))}`);
  if (p.repended) parts.push(`again: ${p.repended.reason.replace('_', ' ')}`);
  return parts.join('; ');
}

/** A table shows this many approver entries of a call, and says how many more there are. */
const SHOWN_APPROVERS = 10;

/** Who may decide, as a cell: a policy may list thousands of entries of up to 200 characters each. */
export function approversCell(approvers: readonly string[] | undefined): string | undefined {
  if (!approvers) return undefined;
  const shown = approvers.slice(0, SHOWN_APPROVERS).map((a) => terminalText(truncateChars(a, 60)));
  const more = approvers.length - shown.length;
  return [...shown, ...(more > 0 ? [`(+${more} more)`] : [])].join(' ');
}

type PendingRow = Parameters<typeof whoDecidesCell>[0] & {
  id: string;
  toolName: string;
  args: unknown;
  allowedDecisions: string[];
  deadline: string;
  approvers?: string[];
  /** The list holds a preview of the arguments only (too large for it): --json has no more, `hitl review` fetches them. */
  argsTruncated?: boolean;
};

/**
 * A call's arguments in a table cell, cut to fit. When the list itself held only their preview, --json has no more
 * of them than the cell: `hitl review` fetches them whole.
 */
function argsCell(p: PendingRow): string {
  // JSON.stringify escapes C0 controls, not C1 or bidi controls.
  const text = JSON.stringify(p.args);
  if (!p.argsTruncated) return terminalText(text, { maxChars: ARGS_CELL_CHARS });
  const cell = terminalText(text, { maxChars: ARGS_CELL_CHARS, seeWhole: 'hitl review' });
  return text.length > ARGS_CELL_CHARS ? cell : `${cell} [a preview; hitl review shows them whole]`;
}

/**
 * Characters of a call's arguments a table row shows: a row is one line, and arguments may be 64 KiB (`hitl review`
 * shows a call whole, `--json` the list as it came).
 */
const ARGS_CELL_CHARS = 200;

/**
 * Pending calls as `hitl pending` and `hitl show` print them. Across runs, `leading` names the columns that say
 * whose call each is (workflow id, agent), before the call's own.
 */
export function pendingTable<T extends PendingRow>(
  pending: T[],
  leading: { headers: string[]; cells: (p: T) => string[] } = { headers: [], cells: () => [] },
): string {
  return table(
    [...leading.headers, 'call', 'tool', 'args', 'allowed', 'due', 'approvers', 'who decides'],
    pending.map((p) => [
      ...leading.cells(p),
      terminalText(p.id),
      terminalText(p.toolName),
      argsCell(p),
      p.allowedDecisions.join(' '),
      until(p.deadline),
      // No list of approvers: anyone who can reach the run decides (a blank cell read as no one).
      approversCell(p.approvers) ?? 'anyone',
      whoDecidesCell(p),
    ]),
  );
}
