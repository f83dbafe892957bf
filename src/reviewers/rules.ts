/**
 * Rule reviewers: named code that reviews a gated call before humans see it. They run in an activity, so unlike
 * predicates they may look things up; a policy names one with `review: {rule: '<name>', options}`. Register yours
 * here, with the schema of its options and whether those let it approve: a policy naming an unknown rule, or giving
 * one options it does not take, is refused where the policy is written (src/agents/policy-option-check.ts). A rule
 * that throws (or answers something that is not a verdict) sends the call to humans.
 */
import { z } from 'zod';
import type { ReviewVerdict } from '../schemas/review.js';
import { readArgPath } from '../policy/arg-path.js';
import type { CallFacts } from '../policy/call-facts.js';
import { AmountOption, ArgPathOption } from '../policy/predicate-options.js';
import { builtOnce } from '../schemas/built-once.js';

/** What a reviewer sees of a call: the facts conditions see, and what approvers would read. */
export interface ReviewedCall extends CallFacts {
  args: Readonly<Record<string, unknown>>;
  /** The text approvers would read. */
  description: string;
  /** The user's request that started the run. */
  prompt: string;
}

/**
 * A rule's review. Its options are as the run recorded them: checked where a policy is written, but a run started
 * straight through Temporal may carry any.
 */
export type ReviewRule = (call: ReviewedCall, options: unknown) => ReviewVerdict | Promise<ReviewVerdict>;

/** A rule as registered: its review, the options it takes, and whether they let it approve. */
export interface ReviewRuleDeclaration<S extends z.ZodType = z.ZodType> {
  /** The options a policy may give it: a strict object (unknown keys refused). */
  options: S;
  /**
   * Whether, with these (checked) options, it may ever answer `approve`. One that may not can only reject or
   * escalate to people: it takes no consent away.
   */
  mayApprove(options: z.infer<S>): boolean;
  review: ReviewRule;
}

/** Keeps a rule's `mayApprove` typed by its options' schema. */
export function declareRule<S extends z.ZodType>(declaration: ReviewRuleDeclaration<S>): ReviewRuleDeclaration<S> {
  return declaration;
}

// Built once per worker (src/schemas/built-once.ts): the workflow reads it, to judge whether a run's reviewer may approve.
const AmountLimitsOptions = builtOnce('reviewers/rules.AmountLimitsOptions', () =>
  z
    .strictObject({ arg: ArgPathOption.optional(), approveUpTo: AmountOption.optional(), rejectAbove: AmountOption.optional() })
    .refine((o) => o.approveUpTo === undefined || o.rejectAbove === undefined || o.approveUpTo <= o.rejectAbove, {
      path: ['approveUpTo'],
      message: 'expected at most rejectAbove: what is approved without a human is never above what is rejected',
    }),
);

export const reviewRuleDeclarations: Readonly<Record<string, ReviewRuleDeclaration>> = {
  /**
   * Judges a numeric argument (`options.arg`, default `amount`): approves it up to `approveUpTo`, rejects it above
   * `rejectAbove`, and escalates what lies between (or anything that is not a number) to humans.
   */
  amountLimits: declareRule({
    options: AmountLimitsOptions,
    mayApprove: (options) => options.approveUpTo !== undefined,
    review(call, options) {
      const { arg = 'amount', approveUpTo, rejectAbove } = (options ?? {}) as { arg?: string; approveUpTo?: number; rejectAbove?: number };
      const value = readArgPath(call.args, arg);
      if (typeof value !== 'number') return { verdict: 'escalate', reason: `${arg} is not a number; a human should look.` };
      if (typeof rejectAbove === 'number' && value > rejectAbove) {
        return { verdict: 'reject', reason: `${arg} ${value} is above the limit of ${rejectAbove} for ${call.toolName}.` };
      }
      if (typeof approveUpTo === 'number' && value <= approveUpTo) {
        return { verdict: 'approve', reason: `${arg} ${value} is within the ${approveUpTo} approved without a human.` };
      }
      return { verdict: 'escalate', reason: `${arg} ${value} needs a human: above ${approveUpTo ?? 'nothing'} approved automatically.` };
    },
  }),
};

/** Each rule's review by name: what the review activity runs (src/activities/review-call.ts). */
export const reviewRules: Readonly<Record<string, ReviewRule>> = Object.fromEntries(
  Object.entries(reviewRuleDeclarations).map(([name, declared]) => [name, declared.review]),
);
