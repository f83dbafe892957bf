import { z } from 'zod';
import { builtOnce } from './built-once.js';

/** When a run starts over with fresh history (it always does when Temporal suggests it), and what it keeps. */
export const ContinueAsNewOptions = builtOnce('schemas/continue-as-new-options.ContinueAsNewOptions', () =>
  z.strictObject({
    /** Start over once history holds this many events. */
    maxEvents: z.number().int().min(200).optional(),
    /**
     * Start over before waiting for people (a decision, a session's next message) once history holds this many
     * events, @default 500: a decision that arrives after the worker let the run go then replays a short history.
     * 51,200 (Temporal's own limit) turns it off.
     */
    beforeWaitEvents: z.number().int().min(50).max(51_200).optional(),
    /** Start over once history holds this many bytes. */
    maxBytes: z.number().int().min(100_000).optional(),
    /** Shorten the transcript when starting over. */
    compaction: z
      .strictObject({
        /** Keep this many most recent turns (a turn starts at a user message). */
        keepLastTurns: z.number().int().min(1).default(3),
        /** Replace what is dropped by a summary written by the model (otherwise it is just dropped). */
        summarize: z.boolean().default(true),
      })
      .optional(),
  }),
);

export type ContinueAsNewOptions = z.infer<typeof ContinueAsNewOptions>;
