import { z } from 'zod';
import { builtOnce } from './built-once.js';

/** Why a run cannot go on by itself: what `show`, the HTTP API and the inbox report for a stuck run. */
export const RunProblem = builtOnce('schemas/run-problem.RunProblem', () =>
  z.object({
    kind: z.enum(['workflow_task_failing', 'no_worker']),
    /** When the problem began (the first failed attempt, or when the waiting task was scheduled). */
    since: z.iso.datetime(),
    /** Attempts of the failing workflow task so far. */
    attempts: z.number().int().optional(),
    /** The newest failure's message, as the worker reported it. */
    failure: z.string().optional(),
    /** What to do about it, in order. */
    advice: z.array(z.string()),
  }),
);
export type RunProblem = z.infer<typeof RunProblem>;
