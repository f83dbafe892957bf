/**
 * Named predicates for `when` conditions, for what comparisons cannot express. They run inside the workflow, so
 * they must be pure and deterministic: no clock, randomness, I/O or env. Register yours here.
 */
import { readArgPath } from './arg-path.js';

/** `context` is the run's context, checked against the agent's `contextSchema` (empty when the run has none). */
export type Predicate = (args: Readonly<Record<string, unknown>>, options: unknown, context: Readonly<Record<string, unknown>>) => boolean;

export const predicates: Readonly<Record<string, Predicate>> = {
  /** An email argument (`options.arg`, default `to`) outside the domains in `options.domains`. */
  externalRecipient(args, options) {
    const { arg = 'to', domains = [] } = (options ?? {}) as { arg?: string; domains?: string[] };
    const address = readArgPath(args, arg);
    if (typeof address !== 'string') return false;
    const domain = address.split('@').pop()?.toLowerCase() ?? '';
    return !domains.map((d) => d.toLowerCase()).includes(domain);
  },

  /** A SQL `query` argument that may write: anything but a plain SELECT or EXPLAIN (a WITH can hide a DELETE). */
  writesData(args) {
    const query = readArgPath(args, 'query');
    return typeof query !== 'string' || !/^\s*(select|explain)\b/i.test(query);
  },
};
