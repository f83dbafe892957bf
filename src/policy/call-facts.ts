/**
 * What a policy may know of a call besides its arguments: the run's `context` (passed at start, never shown to the
 * model), who asked for the run, the agent, our call id and the tool. Conditions, predicates and reviewers all see
 * the same facts, so a rule reads the same wherever it is written.
 */
import type { CallFact } from '../schemas/condition.js';

export interface CallFacts {
  /** The run's context data. @default {} */
  context: Readonly<Record<string, unknown>>;
  requestedBy?: string;
  agent: string;
  callId: string;
  toolName: string;
}

/** Facts for code that has none to give (unit tests, the arguments-only callers of earlier versions). */
export const NO_FACTS: CallFacts = Object.freeze({ context: Object.freeze({}), agent: '', callId: '', toolName: '' });

export function readFact(facts: CallFacts, fact: CallFact): string | undefined {
  return facts[fact];
}
