import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { LIMITS } from '../contract/limits.js';
import { Duration } from './duration.js';

/** A run that stays open after the model answers, waiting durably for the next user message. */
export const SessionOptions = builtOnce('schemas/session.SessionOptions', () =>
  z.strictObject({
    /** The run ends (status `ended`) after this long without a message. */
    idleTimeout: Duration.default('7d'),
  }),
);

/** Payload of the `message` signal and update. */
export const UserMessageInput = builtOnce('schemas/session.UserMessageInput', () =>
  z.strictObject({
    content: z.string().min(1).max(LIMITS.promptChars),
    /** Who sends it, for the transcript's audit; not shown to the model. */
    from: z.string().min(1).max(200).optional(),
  }),
);

/** Payload of the `end` signal and update. */
export const EndInput = builtOnce('schemas/session.EndInput', () => z.strictObject({ reason: z.string().max(2000).optional() }));

/**
 * How a session ended (status `Ended`): by an `end` request, with the reason it gave (HTTP's names who sent it), or
 * after `idleTimeout` without a message (`reason` says how long).
 */
export const SessionEnd = builtOnce('schemas/session.SessionEnd', () =>
  z.object({ by: z.enum(['request', 'idle']), reason: z.string().optional() }),
);

export type SessionOptions = z.infer<typeof SessionOptions>;
export type UserMessageInput = z.infer<typeof UserMessageInput>;
export type EndInput = z.infer<typeof EndInput>;
export type SessionEnd = z.infer<typeof SessionEnd>;
