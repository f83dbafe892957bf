/**
 * Named predicates for `when` conditions, for what comparisons cannot express. They run inside the workflow, so
 * they must be pure and deterministic: no clock, randomness, I/O or env. Register yours here, and the schema of its
 * options in predicate-options.ts (the typecheck asks for it): a policy naming an unknown predicate, or giving one an
 * option it does not take, is refused where the policy is written. Besides the arguments they see the call's facts:
 * the run's context, the requester, the agent and the call id.
 */
import { readArgPath } from './arg-path.js';
import type { CallFacts } from './call-facts.js';

export type Predicate = (args: Readonly<Record<string, unknown>>, options: unknown, facts: CallFacts) => boolean;

const registered = {
  /** An email argument (`options.arg`, default `to`) outside the domains in `options.domains`. */
  externalRecipient(args, options) {
    const { arg = 'to', domains = [] } = (options ?? {}) as { arg?: string; domains?: string[] };
    const address = readArgPath(args, arg);
    if (typeof address !== 'string') return false;
    const domain = address.split('@').pop()?.toLowerCase() ?? '';
    return !domains.map((d) => d.toLowerCase()).includes(domain);
  },

  /**
   * A numeric argument (`options.arg`, default `amount`) above a limit the run's context sets (`options.limit`,
   * default `limit`): a run for a trusted customer can carry a higher limit than one for a new one. Without a
   * numeric limit in the context the call is gated.
   */
  exceedsContextLimit(args, options, facts) {
    const { arg = 'amount', limit = 'limit' } = (options ?? {}) as { arg?: string; limit?: string };
    const value = readArgPath(args, arg);
    const ceiling = readArgPath(facts.context, limit);
    if (typeof ceiling !== 'number') return true;
    return typeof value !== 'number' || value > ceiling;
  },

  /** A SQL `query` argument that may write: anything but a plain SELECT or EXPLAIN (a WITH can hide a DELETE). */
  writesData(args) {
    const query = readArgPath(args, 'query');
    return typeof query !== 'string' || !/^\s*(select|explain)\b/i.test(query);
  },
} satisfies Record<string, Predicate>;

export type PredicateName = keyof typeof registered;

export const predicates: Readonly<Record<string, Predicate>> = registered;
