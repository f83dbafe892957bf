/**
 * The options each predicate of predicates.ts takes, as a strict schema: a policy naming a predicate with options it
 * does not take is refused where the policy is written (an agent in code or in the agents file, a run's own policy at
 * the API and the CLI: src/agents/policy-option-check.ts), never found out in a waiting run. The workflow does not
 * check predicates' options: a run started straight through Temporal with a bad option fails its call closed, as
 * recorded runs did. It reads these schemas only through rule reviewers' options (src/reviewers/rules.ts, whether a
 * reviewer may approve), so they are built once per worker (built-once.ts). A predicate without an entry here fails
 * the typecheck.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import type { PredicateName } from './predicates.js';

/** A dot path into the call's arguments (or the run's context): `to`, `customer.email`, `items.0.sku`. */
export const ArgPathOption = builtOnce('policy/predicate-options.ArgPathOption', () =>
  z
    .string({ error: 'expected a dot path such as `amount` or `customer.email`' })
    .min(1, 'expected a dot path such as `amount` or `customer.email`'),
);

/** An amount a rule compares an argument with. */
export const AmountOption = builtOnce('policy/predicate-options.AmountOption', () =>
  z.number({ error: 'expected a finite number' }).min(0, 'expected a number of 0 or more (an amount a numeric argument is compared with)'),
);

const ExternalRecipientOptions = builtOnce('policy/predicate-options.ExternalRecipientOptions', () =>
  z.strictObject({
    arg: ArgPathOption.optional(),
    domains: z
      .array(z.string({ error: 'expected a domain such as `shop.com`' }).min(1, 'expected a domain such as `shop.com`'), {
        error: 'expected an array of strings (domains such as `shop.com`)',
      })
      .optional(),
  }),
);

const ExceedsContextLimitOptions = builtOnce('policy/predicate-options.ExceedsContextLimitOptions', () =>
  z.strictObject({
    arg: ArgPathOption.optional(),
    /** A path into the run's context. */
    limit: ArgPathOption.optional(),
  }),
);

const NoOptions = builtOnce('policy/predicate-options.NoOptions', () => z.strictObject({}));

export const predicateOptions: { readonly [name in PredicateName]: z.ZodType } = {
  externalRecipient: ExternalRecipientOptions,
  exceedsContextLimit: ExceedsContextLimitOptions,
  writesData: NoOptions,
};
