/**
 * Model text as it streams: what the model activity publishes on a run's Workflow Stream `tokens` topic, and what
 * the workflow accepts there from outside (src/workflows/run-stream.ts refuses anything else).
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';

/** The longest text one event carries; the activity's batch size must stay below it. */
export const TOKEN_TEXT_MAX_CHARS = 8192;

export const TokenEvent = builtOnce('schemas/token-event.TokenEvent', () =>
  z.strictObject({
    /** The run's model step (`step` in the run state) the text belongs to; 0 when the caller did not say. */
    step: z.number().int().nonnegative(),
    /**
     * The model call's activity attempt. A retried call streams again from the start under a higher attempt:
     * watchers drop the text of a step's earlier attempts when a later one begins.
     */
    attempt: z.number().int().positive(),
    /** 0, 1, 2, ... within one attempt, in the order the text was generated. */
    seq: z.number().int().nonnegative(),
    /** The content deltas received since the previous event, concatenated. */
    text: z.string().min(1).max(TOKEN_TEXT_MAX_CHARS),
  }),
);

export type TokenEvent = z.infer<typeof TokenEvent>;
