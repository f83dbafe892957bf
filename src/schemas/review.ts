/**
 * Reviewers decide before humans: a per-tool `review` step, run as an activity, that approves, rejects (with a
 * message for the model) or escalates to humans (who see its reasoning). A reviewer is a rule (named code in
 * src/reviewers/) or a model with its own instructions answering with a structured verdict.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { Duration } from './duration.js';

export const REVIEW_VERDICTS = ['approve', 'reject', 'escalate'] as const;

/** What a reviewer answers. `reason`: for a reject, what the model is told; for an escalation, what humans read. */
export const ReviewVerdict = builtOnce('schemas/review.ReviewVerdict', () =>
  z.strictObject({
    verdict: z.enum(REVIEW_VERDICTS),
    reason: z.string().max(2000),
  }),
);

export const ModelReviewer = builtOnce('schemas/review.ModelReviewer', () =>
  z.strictObject({
    /** The reviewer's own system prompt: what to approve, reject or escalate. */
    instructions: z.string().min(1).max(20_000),
    /** @default the agent's model */
    model: z.string().min(1).max(128).optional(),
  }),
);

export const ReviewConfig = builtOnce('schemas/review.ReviewConfig', () =>
  z
    .strictObject({
      /** A rule reviewer: the name of a rule in src/reviewers/rules.ts. */
      rule: z.string().min(1).max(128).optional(),
      /** Options the rule reads. */
      options: z.unknown().optional(),
      /** A model reviewer. */
      model: ModelReviewer.optional(),
      /** How the audit log names it (`decidedBy: "reviewer:<name>"`). @default the rule's name, or `model` */
      name: z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, `_`, `.` or `-`, at most 64')
        .optional(),
      /** Record the verdict without acting on it: humans decide as if there were no reviewer. @default false */
      shadow: z.boolean().optional(),
      /** How long the reviewer may take, per attempt; after that (and its retries) the call goes to humans. @default '1m' */
      timeout: Duration.optional(),
    })
    .refine((r) => (r.rule === undefined) !== (r.model === undefined), {
      message: 'a reviewer is either a `rule` or a `model`, not both or neither',
    }),
);

/** What the run made of a review: the reviewer's verdict, or `failed` when it could not give one. */
export const ReviewOutcome = builtOnce('schemas/review.ReviewOutcome', () =>
  z.object({
    reviewer: z.string(),
    verdict: z.enum([...REVIEW_VERDICTS, 'failed']),
    reason: z.string(),
    /** The verdict was only recorded (shadow mode). */
    shadow: z.boolean().optional(),
  }),
);

export function reviewerName(config: Pick<ReviewConfig, 'name' | 'rule'>): string {
  return config.name ?? config.rule ?? 'model';
}

export type ReviewVerdict = z.infer<typeof ReviewVerdict>;
export type ModelReviewer = z.infer<typeof ModelReviewer>;
export type ReviewConfig = z.infer<typeof ReviewConfig>;
export type ReviewOutcome = z.infer<typeof ReviewOutcome>;
