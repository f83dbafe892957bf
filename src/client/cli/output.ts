/** Human-readable tables by default, JSON for scripts; colour only on a terminal (picocolors checks). */
import Table from 'cli-table3';
import pc from 'picocolors';
import type { RunProblem } from '../../schemas/run-problem.js';

export interface Output {
  json: boolean;
}

export function print(out: Output, value: unknown, human: () => string): void {
  process.stdout.write(out.json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

export function table(head: string[], rows: (string | number | undefined)[][]): string {
  const t = new Table({ head: head.map((h) => pc.bold(h)), style: { head: [], border: [] }, wordWrap: true });
  t.push(...rows.map((row) => row.map((cell) => (cell === undefined ? '' : String(cell)))));
  return t.toString();
}

export function until(deadline: string): string {
  const ms = Date.parse(deadline) - Date.now();
  if (ms <= 0) return pc.red('overdue');
  const hours = ms / 3_600_000;
  return hours >= 48 ? `${Math.round(hours / 24)}d` : hours >= 1 ? `${Math.round(hours)}h` : `${Math.max(1, Math.round(ms / 60_000))}m`;
}

export const style = pc;

/** What `show` and `pending` print above a stuck run: what is wrong, since when, the failure and what to do. */
export function stuckNotice(problem: RunProblem): string[] {
  const what =
    problem.kind === 'no_worker' ? 'no worker polls its task queue' : `its workflow task keeps failing (${problem.attempts} attempts)`;
  return [
    pc.red(pc.bold(`STUCK: ${what}`)),
    `Since: ${problem.since}`,
    ...(problem.failure ? [`Failure: ${problem.failure}`] : []),
    'What to do:',
    ...problem.advice.map((a) => `  - ${a}`),
    pc.yellow('Decisions cannot be taken until the run is unstuck; below is what it last published.'),
    '',
  ];
}
