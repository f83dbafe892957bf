/** The agents file refuses a policy naming predicates or review rules that are not there, or options they do not take. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentsFileError } from '../errors.js';
import { loadAgentsFile } from './agents-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-agents-file-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const problemsOf = (text: string) => {
  const file = path.join(dir, 'agents.yaml');
  writeFileSync(file, text);
  try {
    loadAgentsFile(file);
  } catch (err) {
    expect(err).toBeInstanceOf(AgentsFileError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
};

describe('agents file: predicates and review rules', () => {
  it('refuses unknown review rules and predicates, and options they do not take, with the line of each', () => {
    const message = problemsOf(
      `agents:
  - name: reviewed
    instructions: x
    tools: [process_refund, send_email, execute_sql]
    approval:
      tools:
        process_refund: { review: { rule: nope } }
        send_email:
          when: { any: [{ predicate: nope }, { predicate: externalRecipient, options: { domains: notalist } }] }
        execute_sql:
          review: { rule: amountLimits, options: { approveUpTo: lots, rejectAbove: -1, bogus: 1 } }
`,
    );
    for (const line of [
      ':7 agents.0.approval.tools.process_refund.review.rule: no rule "nope" in src/reviewers/rules.ts (known: amountLimits)',
      ':9 agents.0.approval.tools.send_email.when.any.0.predicate: no predicate "nope" in src/policy/predicates.ts (known: ',
      ':9 agents.0.approval.tools.send_email.when.any.1.options.domains: expected an array of strings',
      ':11 agents.0.approval.tools.execute_sql.review.options.approveUpTo: expected a finite number',
      ':11 agents.0.approval.tools.execute_sql.review.options.rejectAbove: expected a number of 0 or more',
      ':11 agents.0.approval.tools.execute_sql.review.options.bogus: not an option: amountLimits takes arg, approveUpTo, rejectAbove',
    ])
      expect(message).toContain(line);
    expect(message).toContain('has 6 problem(s)');
  });
});
