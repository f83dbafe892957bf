/**
 * Rule reviewers: named code that reviews a gated call before humans see it. They run in an activity, so unlike
 * predicates they may look things up; a policy names one with `review: {rule: '<name>', options}`. Register yours
 * here. A rule that throws (or answers something that is not a verdict) sends the call to humans.
 */
import type { ReviewVerdict } from '../schemas/review.js';
import { readArgPath } from '../policy/arg-path.js';
import type { CallFacts } from '../policy/call-facts.js';

/** What a reviewer sees of a call: the facts conditions see, and what approvers would read. */
export interface ReviewedCall extends CallFacts {
  args: Readonly<Record<string, unknown>>;
  /** The text approvers would read. */
  description: string;
  /** The user's request that started the run. */
  prompt: string;
}

export type ReviewRule = (call: ReviewedCall, options: unknown) => ReviewVerdict | Promise<ReviewVerdict>;

export const reviewRules: Readonly<Record<string, ReviewRule>> = {
  /**
   * Judges a numeric argument (`options.arg`, default `amount`): approves it up to `approveUpTo`, rejects it above
   * `rejectAbove`, and escalates what lies between (or anything that is not a number) to humans.
   */
  amountLimits(call, options) {
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
};
