/**
 * `when` conditions: data, so they travel in the workflow input and show in history. Comparisons on an argument
 * path, on the run's `context`, or on a fact of the call (who asked, which agent, the call id, the tool), the
 * combinators `all`/`any`/`not`, and named predicates registered in `src/policy/predicates.ts`.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { patternProblem } from '../policy/patterns.js';

export const COMPARISON_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'matches', 'exists'] as const;
/** What a condition may know of a call besides its arguments and the run's context. */
export const CALL_FACTS = ['requestedBy', 'agent', 'callId', 'toolName'] as const;

const comparison = builtOnce('schemas/condition.comparison', () => ({
  op: z.enum(COMPARISON_OPS),
  value: z.unknown().optional(),
  /** `matches`: regular expression flags, e.g. `i`. `contains`: `i` compares strings case-insensitively. */
  flags: z
    .string()
    .regex(/^[imsu]*$/)
    .optional(),
}));

/** A pattern that RE2 cannot run, or too large a one, fails where the policy is defined, never inside a waiting run. */
function checkPattern(c: { op: string; value?: unknown; flags?: string }, ctx: z.RefinementCtx): void {
  if (c.op !== 'matches') return;
  if (typeof c.value !== 'string') {
    ctx.addIssue({ code: 'custom', path: ['value'], message: '`matches` needs a regular expression string' });
    return;
  }
  const problem = patternProblem(c.value, c.flags);
  if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
}

export const ArgComparison = builtOnce('schemas/condition.ArgComparison', () =>
  z
    .strictObject({
      /** Dot path into the arguments: `amount`, `customer.email`, `items.0.sku`. */
      arg: z.string().min(1),
      ...comparison,
    })
    .superRefine(checkPattern),
);

/** A comparison on the run's `context` (passed at start, never shown to the model): `customer.tier`. */
export const ContextComparison = builtOnce('schemas/condition.ContextComparison', () =>
  z
    .strictObject({
      context: z.string().min(1),
      ...comparison,
    })
    .superRefine(checkPattern),
);

/** A comparison on a fact of the call: `{fact: 'requestedBy', op: 'in', value: ['ann', 'bob']}`. */
export const FactComparison = builtOnce('schemas/condition.FactComparison', () =>
  z
    .strictObject({
      fact: z.enum(CALL_FACTS),
      ...comparison,
    })
    .superRefine(checkPattern),
);

export const PredicateCall = builtOnce('schemas/condition.PredicateCall', () =>
  z.strictObject({
    predicate: z.string().min(1),
    options: z.unknown().optional(),
  }),
);

export type Condition =
  | z.infer<typeof ArgComparison>
  | z.infer<typeof ContextComparison>
  | z.infer<typeof FactComparison>
  | z.infer<typeof PredicateCall>
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

// Recursive shapes are the one place the type is written by hand: zod cannot infer through the cycle.
export const Condition: z.ZodType<Condition> = builtOnce('schemas/condition.Condition', () =>
  z.lazy(() =>
    z.union([
      ArgComparison,
      ContextComparison,
      FactComparison,
      PredicateCall,
      z.strictObject({ all: z.array(Condition).min(1) }),
      z.strictObject({ any: z.array(Condition).min(1) }),
      z.strictObject({ not: Condition }),
    ]),
  ),
);

/** `matches` comparisons in one `when`: each may take a fraction of a second on a call's largest arguments. */
export const MAX_PATTERNS_PER_WHEN = 8;

function patternsIn(condition: Condition): number {
  if ('all' in condition) return condition.all.reduce((n, c) => n + patternsIn(c), 0);
  if ('any' in condition) return condition.any.reduce((n, c) => n + patternsIn(c), 0);
  if ('not' in condition) return patternsIn(condition.not);
  return 'op' in condition && condition.op === 'matches' ? 1 : 0;
}

/** A tool's `when`: a condition that runs at most MAX_PATTERNS_PER_WHEN patterns for a call. */
export const When = builtOnce('schemas/condition.When', () =>
  Condition.superRefine((condition, ctx) => {
    const patterns = patternsIn(condition);
    if (patterns > MAX_PATTERNS_PER_WHEN) {
      ctx.addIssue({ code: 'custom', message: `${patterns} \`matches\` comparisons; a \`when\` holds at most ${MAX_PATTERNS_PER_WHEN}` });
    }
  }),
);

export type ArgComparison = z.infer<typeof ArgComparison>;
export type ContextComparison = z.infer<typeof ContextComparison>;
export type FactComparison = z.infer<typeof FactComparison>;
export type Comparison = ArgComparison | ContextComparison | FactComparison;
export type CallFact = (typeof CALL_FACTS)[number];
export type PredicateCall = z.infer<typeof PredicateCall>;
