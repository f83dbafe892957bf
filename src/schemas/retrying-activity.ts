import { z } from 'zod';
import { builtOnce } from './built-once.js';

/**
 * An activity of a run that failed and is being tried again: a model call the API keeps refusing, a tool whose
 * service is down. The run itself sees nothing of it until the last attempt fails, so clients read it from
 * Temporal's description of the run and report it beside the run's state (`show`, the HTTP API).
 */
export const RetryingActivity = builtOnce('schemas/retrying-activity.RetryingActivity', () =>
  z.object({
    /** The activity type: callModel, executeTool, … */
    activity: z.string(),
    /** The attempt that runs now or comes next (2 is the first retry). */
    attempt: z.number().int().min(2),
    /** Absent when attempts are unlimited. */
    maximumAttempts: z.number().int().min(1).optional(),
    /** What the newest failed attempt said. */
    lastFailure: z.string(),
    /** When the next attempt starts, while it waits for its turn. */
    nextAttemptAt: z.iso.datetime().optional(),
  }),
);
export type RetryingActivity = z.infer<typeof RetryingActivity>;
