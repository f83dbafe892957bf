/**
 * Evaluates `when` conditions against a call's arguments and the facts around it (the run's context, the
 * requester, the agent, the call id). Pure and deterministic: it runs in the workflow.
 */
import deepEqual from 'fast-deep-equal';
import type { Comparison, Condition } from '../schemas/condition.js';
import { readArgPath } from './arg-path.js';
import { NO_FACTS, readFact, type CallFacts } from './call-facts.js';
import { patternMatches } from './patterns.js';
import { predicates } from './predicates.js';

export function evaluateCondition(condition: Condition, args: Readonly<Record<string, unknown>>, facts: CallFacts = NO_FACTS): boolean {
  if ('all' in condition) return condition.all.every((c) => evaluateCondition(c, args, facts));
  if ('any' in condition) return condition.any.some((c) => evaluateCondition(c, args, facts));
  if ('not' in condition) return !evaluateCondition(condition.not, args, facts);
  if ('predicate' in condition) {
    const predicate = Object.hasOwn(predicates, condition.predicate) ? predicates[condition.predicate] : undefined;
    // An unknown predicate must not silently let a call through: treat it as matching, so the call waits.
    return predicate ? predicate(args, condition.options, facts) : true;
  }
  return compare(condition, subjectOf(condition, args, facts));
}

function subjectOf(condition: Comparison, args: Readonly<Record<string, unknown>>, facts: CallFacts): unknown {
  if ('arg' in condition) return readArgPath(args, condition.arg);
  if ('context' in condition) return readArgPath(facts.context, condition.context);
  return readFact(facts, condition.fact);
}

function compare({ op, value, flags = '' }: Comparison, actual: unknown): boolean {
  switch (op) {
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'eq':
      return deepEqual(actual, value);
    case 'ne':
      return !deepEqual(actual, value);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return ordered(op, actual, value);
    case 'in':
      return Array.isArray(value) && value.some((v) => deepEqual(actual, v));
    case 'contains':
      if (typeof actual === 'string' && typeof value === 'string') {
        return flags.includes('i') ? actual.toLowerCase().includes(value.toLowerCase()) : actual.includes(value);
      }
      return Array.isArray(actual) && actual.some((v) => deepEqual(v, value));
    case 'matches':
      return typeof actual === 'string' && typeof value === 'string' && patternMatches(value, flags, actual);
  }
}

function ordered(op: 'gt' | 'gte' | 'lt' | 'lte', actual: unknown, value: unknown): boolean {
  const comparable = (typeof actual === 'number' && typeof value === 'number') || (typeof actual === 'string' && typeof value === 'string');
  if (!comparable) return false;
  const a = actual as number | string;
  const b = value as number | string;
  return op === 'gt' ? a > b : op === 'gte' ? a >= b : op === 'lt' ? a < b : a <= b;
}

/** A short human reading of a condition, for the rule that gated a call. */
export function describeCondition(condition: Condition): string {
  if ('all' in condition) return `all(${condition.all.map(describeCondition).join(', ')})`;
  if ('any' in condition) return `any(${condition.any.map(describeCondition).join(', ')})`;
  if ('not' in condition) return `not(${describeCondition(condition.not)})`;
  if ('predicate' in condition) return `${condition.predicate}()`;
  const subject = 'arg' in condition ? condition.arg : 'context' in condition ? `context.${condition.context}` : condition.fact;
  return condition.op === 'exists' ? `${subject} exists` : `${subject} ${condition.op} ${JSON.stringify(condition.value)}`;
}
