import type { ReviewConfig } from '../schemas/review.js';
import { reviewRuleDeclarations } from './rules.js';

/**
 * Whether a reviewer may approve a call on its own: a model reviewer may; a rule as it declares for its options
 * (rules.ts). An unknown rule, or options it does not take, count as may: where a policy is written they are refused
 * (src/agents/policy-option-check.ts), and a run started straight through Temporal is judged the careful way.
 * Pure, and run in the workflow (run-policy.ts) as predicates are: a rule's `mayApprove` must not change its answer
 * for options runs already hold.
 */
export function reviewerMayApprove(review: Pick<ReviewConfig, 'rule' | 'options'>): boolean {
  if (review.rule === undefined) return true;
  const declared = Object.hasOwn(reviewRuleDeclarations, review.rule) ? reviewRuleDeclarations[review.rule] : undefined;
  const options = declared?.options.safeParse(review.options === undefined ? {} : review.options);
  return !declared || !options?.success || declared.mayApprove(options.data);
}
