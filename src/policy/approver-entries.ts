/**
 * Approver entries that name no one a decision could come from: `user:` alone, `group: finance` (the space is part of
 * the name), `finance ` or `group:user:x`. Under the name rule (src/bounds/identity-names.ts) such an entry can never
 * match, so a typo would lock its tool for good. Refused where policies are written: an agent in code or in the agents
 * file (define-agent.ts), and a run's own policy and breakpoints wherever a run is asked for (the client's
 * start-input.ts, which the API, the CLI and services start through; check-run-start.ts, which words it first). The
 * workflow's schema stays as it was, so runs recorded with such an entry replay as they ran.
 */
import type { AgentProblem } from '../agents/agent-options-check.js';
import { IDENTITY_NAME_RULE, isIdentityName } from '../bounds/identity-names.js';
import { truncateChars } from '../bounds/truncate.js';
import { InvalidRunInputError } from '../errors.js';
import { Interrupts } from '../schemas/agent-options.js';
import type { ApprovalPolicyOverride, ToolPolicy } from '../schemas/approval-policy.js';
import { approverEntry } from './may-decide.js';

/** Why `entry` names no one, or undefined. */
export function approverEntryProblem(entry: string): string | undefined {
  if (isIdentityName(approverEntry(entry).name)) return undefined;
  return `${quoted(entry)} names no one: after an optional user: or group:, ${IDENTITY_NAME_RULE}`;
}

/** What names no one, as an error quotes it: a name is at most 200 characters, so the rest says nothing more. */
function quoted(text: string): string {
  return `"${truncateChars(text, 220)}"`;
}

/** At most this many problems are listed in one refusal; a body of 10,000 bad entries is answered in a few KiB. */
const LISTED_PROBLEMS = 20;

/** Every entry of a policy (or a run's override) that names no one, with where it is. */
export function approverEntryProblems(policy: Pick<ApprovalPolicyOverride, 'tools' | 'default'>): AgentProblem[] {
  const gates: [(string | number)[], ToolPolicy | undefined][] = [
    ...Object.entries(policy.tools ?? {}).map(([key, entry]): [(string | number)[], ToolPolicy] => [['tools', key], entry]),
    [['default'], policy.default],
  ];
  return gates.flatMap(([path, gate]) => (typeof gate === 'object' ? entriesProblems(path, gate) : []));
}

/**
 * Every breakpoint's entry that names no one, with where it is (under `interrupt`). Breakpoints of the wrong shape
 * have none to look at: what is wrong with their shape is for the schema's check to say (agent-options-check.ts, and
 * a run's input schema).
 */
function interruptProblems(interrupt: unknown): AgentProblem[] {
  const parsed = Interrupts.safeParse(interrupt ?? {});
  if (!parsed.success) return [];
  return Object.entries(parsed.data).flatMap(([where, setting]) =>
    typeof setting === 'object' ? listProblems(['interrupt', where, 'approvers'], setting.approvers) : [],
  );
}

/**
 * What an agent's definition or a run's own start input names badly: the approvers of its policy and its breakpoints,
 * and a run's requester, who under four eyes would not count as the approver of the same name.
 */
export function namingProblems(input: {
  requestedBy?: string;
  approval?: Pick<ApprovalPolicyOverride, 'tools' | 'default'>;
  interrupt?: unknown;
}): AgentProblem[] {
  return [
    ...(input.requestedBy !== undefined && !isIdentityName(input.requestedBy)
      ? [{ path: ['requestedBy'], message: `${quoted(input.requestedBy)} names no one: ${IDENTITY_NAME_RULE}` }]
      : []),
    ...approverEntryProblems(input.approval ?? {}).map((problem) => ({ ...problem, path: ['approval', ...problem.path] })),
    ...interruptProblems(input.interrupt),
  ];
}

/** Refuses a run's start input that names no one where it names people (namingProblems), a problem a line. */
export function throwNamingProblems(input: Parameters<typeof namingProblems>[0]): void {
  const problems = namingProblems(input);
  if (!problems.length) return;
  const lines = problems.slice(0, LISTED_PROBLEMS).map((p) => `${p.path.join('.')}: ${p.message}`);
  const more = problems.length - lines.length;
  throw new InvalidRunInputError([...lines, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n'));
}

/** The entries of one list of approvers (a gate's, a tier's or a breakpoint's). */
export function listProblems(path: (string | number)[], approvers: readonly string[] | undefined): AgentProblem[] {
  return (approvers ?? []).flatMap((entry, i) => {
    const message = approverEntryProblem(entry);
    return message ? [{ path: [...path, i], message }] : [];
  });
}

function entriesProblems(path: (string | number)[], gate: Exclude<ToolPolicy, boolean>): AgentProblem[] {
  return [
    ...listProblems([...path, 'approvers'], gate.approvers),
    ...(gate.escalate ?? []).flatMap((tier, i) => listProblems([...path, 'escalate', i, 'approvers'], tier.approvers)),
  ];
}
