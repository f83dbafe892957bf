/** The predicates and rule reviewers a policy names must exist and take the options given, wherever they sit. */
import { describe, expect, it } from 'vitest';
import { predicateOptions } from '../policy/predicate-options.js';
import { predicates } from '../policy/predicates.js';
import { reviewRuleDeclarations, reviewRules } from '../reviewers/rules.js';
import { reviewerMayApprove } from '../reviewers/reviewer-may-approve.js';
import { policyOptionProblems } from './policy-option-check.js';

const when = (condition: unknown) => policyOptionProblems({ tools: { send_email: { when: condition } } });
const review = (config: unknown) => policyOptionProblems({ tools: { process_refund: { review: config } } });
const at = (...path: (string | number)[]) => ({ path, message: expect.any(String) as string });

describe('predicates’ options', () => {
  it.each<[string, unknown, unknown]>([
    ['externalRecipient', { arg: 'customer.email', domains: ['shop.com'] }, { domains: 'notalist' }],
    ['externalRecipient', undefined, { domains: ['shop.com', 3] }],
    ['exceedsContextLimit', { arg: 'amount', limit: 'refundLimit' }, { limit: 5 }],
    ['writesData', {}, { query: 'sql' }],
  ])('%s takes %j and refuses %j', (predicate, good, bad) => {
    expect(when({ predicate, options: good })).toEqual([]);
    expect(when({ predicate, options: bad })).toHaveLength(1);
  });

  it('says where, and what is accepted', () => {
    expect(
      when({
        any: [
          { predicate: 'externalRecipient', options: { domains: 'notalist' } },
          { arg: 'x', op: 'exists' },
        ],
      }),
    ).toEqual([
      {
        path: ['tools', 'send_email', 'when', 'any', 0, 'options', 'domains'],
        message: 'expected an array of strings (domains such as `shop.com`)',
      },
    ]);
    expect(when({ predicate: 'externalRecipient', options: { domain: ['shop.com'] } })).toEqual([
      {
        path: ['tools', 'send_email', 'when', 'options', 'domain'],
        message: 'not an option: externalRecipient takes arg, domains',
      },
    ]);
    expect(when({ predicate: 'writesData', options: 'yes' })).toEqual([
      { path: ['tools', 'send_email', 'when', 'options'], message: 'expected an object of options: writesData takes no options' },
    ]);
  });

  it('names an unknown predicate with the known ones, however deep it sits', () => {
    const nested = { all: [{ arg: 'to', op: 'exists' }, { not: { any: [{ predicate: 'nope' }] } }] };
    expect(when(nested)).toEqual([
      {
        path: ['tools', 'send_email', 'when', 'all', 1, 'not', 'any', 0, 'predicate'],
        message: 'no predicate "nope" in src/policy/predicates.ts (known: externalRecipient, exceedsContextLimit, writesData)',
      },
    ]);
    expect(policyOptionProblems({ default: { when: { predicate: 'toString' } } })).toEqual([at('default', 'when', 'predicate')]);
  });

  it('has a schema for every predicate, and none for a predicate that is not there', () => {
    expect(Object.keys(predicateOptions).sort()).toEqual(Object.keys(predicates).sort());
  });
});

describe('rule reviewers’ options', () => {
  it('takes amountLimits’ options and refuses wrong types, unknown keys and limits the wrong way round', () => {
    expect(review({ rule: 'amountLimits', options: { arg: 'total', approveUpTo: 100, rejectAbove: 50000 } })).toEqual([]);
    expect(review({ rule: 'amountLimits' })).toEqual([]);
    const options = ['tools', 'process_refund', 'review', 'options'];
    expect(review({ rule: 'amountLimits', options: { approveUpTo: 'lots', rejectAbove: -1, bogus: 1 } })).toEqual([
      { path: [...options, 'approveUpTo'], message: 'expected a finite number' },
      { path: [...options, 'rejectAbove'], message: expect.stringContaining('expected a number of 0 or more') },
      { path: [...options, 'bogus'], message: 'not an option: amountLimits takes arg, approveUpTo, rejectAbove' },
    ]);
    expect(review({ rule: 'amountLimits', options: { approveUpTo: 100, rejectAbove: 50 } })).toEqual([
      { path: [...options, 'approveUpTo'], message: expect.stringContaining('expected at most rejectAbove') },
    ]);
    expect(review({ rule: 'amountLimits', options: { approveUpTo: Infinity } })).toEqual([at(...options, 'approveUpTo')]);
  });

  it('names an unknown rule with the known ones, in a shadow reviewer and the default too', () => {
    expect(review({ rule: 'nope', shadow: true })).toEqual([
      { path: ['tools', 'process_refund', 'review', 'rule'], message: 'no rule "nope" in src/reviewers/rules.ts (known: amountLimits)' },
    ]);
    expect(policyOptionProblems({ default: { review: { rule: 'constructor' } } })).toEqual([at('default', 'review', 'rule')]);
    expect(review({ model: { instructions: 'x' }, options: { anything: 1 } })).toEqual([]);
  });

  it('runs each declared rule’s review', () => {
    expect(Object.keys(reviewRules)).toEqual(Object.keys(reviewRuleDeclarations));
  });
});

describe('reviewerMayApprove', () => {
  it('asks the rule, with its checked options; a model, an unknown rule or bad options may', () => {
    expect(reviewerMayApprove({ rule: 'amountLimits', options: { approveUpTo: 100 } })).toBe(true);
    expect(reviewerMayApprove({ rule: 'amountLimits', options: { rejectAbove: 50000 } })).toBe(false);
    expect(reviewerMayApprove({ rule: 'amountLimits' })).toBe(false);
    expect(reviewerMayApprove({ rule: 'amountLimits', options: { rejectAbove: 5, bogus: 1 } })).toBe(true);
    expect(reviewerMayApprove({ rule: 'nope' })).toBe(true);
    expect(reviewerMayApprove({})).toBe(true);
  });
});
