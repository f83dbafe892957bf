/**
 * The named code a policy calls, checked where the policy is written: each predicate of a `when` (src/policy/
 * predicates.ts, its options' schema in predicate-options.ts) and each rule reviewer (src/reviewers/rules.ts) must
 * exist and take the options given. An agent in code or in the agents file is checked when it is defined
 * (define-agent.ts), a run's own policy where the run is asked for (check-run-start.ts). Not in the workflow, which
 * runs what it was given: there an unknown predicate gates its call, a predicate's bad option fails the call closed
 * and an unknown rule sends the call to people, as recorded runs did.
 */
import type { z } from 'zod';
import { truncateChars } from '../bounds/truncate.js';
import { predicateOptions } from '../policy/predicate-options.js';
import { reviewRuleDeclarations } from '../reviewers/rules.js';
import type { AgentProblem } from './agent-options-check.js';

type Path = (string | number)[];

const PREDICATES: Readonly<Record<string, z.ZodType>> = predicateOptions;

/**
 * Every predicate and rule reviewer of a policy (an agent's, or a run's own) that names no code or is given options
 * it does not take, with where it is in the policy (`['tools', 'send_email', 'when', 'any', 0, 'options', 'domains']`).
 * Takes the policy as written: what is wrong with its shape is the schema's to say, and hides none of these.
 */
export function policyOptionProblems(policy: unknown): AgentProblem[] {
  if (!isRecord(policy)) return [];
  const problems: AgentProblem[] = [];
  if (isRecord(policy.tools)) {
    for (const [key, entry] of Object.entries(policy.tools)) gateProblems(['tools', key], entry, problems);
  }
  gateProblems(['default'], policy.default, problems);
  return problems;
}

function gateProblems(path: Path, gate: unknown, problems: AgentProblem[]): void {
  if (!isRecord(gate)) return;
  if (gate.when !== undefined) conditionProblems([...path, 'when'], gate.when, problems);
  const review = gate.review;
  if (!isRecord(review) || typeof review.rule !== 'string') return;
  const rules = reviewRuleDeclarations;
  const declared = Object.hasOwn(rules, review.rule) ? rules[review.rule] : undefined;
  if (!declared) {
    const message = `no rule ${quoted(review.rule)} in src/reviewers/rules.ts (known: ${Object.keys(rules).join(', ')})`;
    problems.push({ path: [...path, 'review', 'rule'], message });
  } else optionProblems([...path, 'review', 'options'], review.rule, declared.options, review.options, problems);
}

function conditionProblems(path: Path, condition: unknown, problems: AgentProblem[]): void {
  if (!isRecord(condition)) return;
  for (const key of ['all', 'any'] as const) {
    const list = condition[key];
    if (Array.isArray(list)) list.forEach((c, i) => conditionProblems([...path, key, i], c, problems));
  }
  if (condition.not !== undefined) conditionProblems([...path, 'not'], condition.not, problems);
  const name = condition.predicate;
  if (typeof name !== 'string') return;
  const schema = Object.hasOwn(PREDICATES, name) ? PREDICATES[name] : undefined;
  if (!schema) {
    const message = `no predicate ${quoted(name)} in src/policy/predicates.ts (known: ${Object.keys(PREDICATES).join(', ')})`;
    problems.push({ path: [...path, 'predicate'], message });
  } else optionProblems([...path, 'options'], name, schema, condition.options, problems);
}

/** What is wrong with the options given to `name`, each where it is; leaving them out is giving `{}`. */
function optionProblems(path: Path, name: string, schema: z.ZodType, options: unknown, problems: AgentProblem[]): void {
  const parsed = schema.safeParse(options === undefined ? {} : options);
  if (parsed.success) return;
  const keys = optionNames(schema);
  const takes = keys.length ? `${name} takes ${keys.join(', ')}` : `${name} takes no options`;
  for (const issue of parsed.error.issues) {
    const at = [...path, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push({ path: [...at, key], message: `not an option: ${takes}` });
    } else if (issue.code === 'invalid_type' && issue.path.length === 0) {
      problems.push({ path: at, message: `expected an object of options: ${takes}` });
    } else problems.push({ path: at, message: issue.message });
  }
}

function optionNames(schema: z.ZodType): string[] {
  const shape = (schema as { shape?: unknown }).shape;
  return isRecord(shape) ? Object.keys(shape) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quoted(text: string): string {
  return JSON.stringify(truncateChars(text, 100));
}
