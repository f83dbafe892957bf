/** One model call as the run remembers it: the model chosen, and what its hooks did. Shown by `runState`. */
import { z } from 'zod';
import { builtOnce } from './built-once.js';

export const ModelCallEntry = builtOnce('schemas/model-call.ModelCallEntry', () =>
  z.object({
    step: z.number().int(),
    model: z.string(),
    /** Set when the model selector chose an endpoint other than the agent's. */
    baseURL: z.string().optional(),
    /** The beforeModel hook sent the model `messages` of the transcript's `of`. */
    sent: z.object({ messages: z.number().int(), of: z.number().int() }).optional(),
    /** What the afterModel hook or a human at a breakpoint did with the reply (absent: it was taken as it came). */
    verdict: z
      .object({
        action: z.enum(['replace', 'retry', 'stop', 'edit', 'reject']),
        by: z.enum(['afterModel', 'breakpoint']),
        reason: z.string().optional(),
      })
      .optional(),
  }),
);

/** What continue-as-new carries of the log. */
export const ModelCallsCarry = builtOnce('schemas/model-call.ModelCallsCarry', () =>
  z.object({
    entries: z.array(ModelCallEntry),
    /** Replies sent back for a retry in a row (afterModel hooks see it). */
    retries: z.number().int(),
  }),
);

export type ModelCallEntry = z.infer<typeof ModelCallEntry>;
export type ModelCallsCarry = z.infer<typeof ModelCallsCarry>;
