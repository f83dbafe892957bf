/**
 * Named, pure model selectors: they choose the model (and optionally the endpoint) for each call from the step,
 * the transcript's size and the run's context. They run in the workflow, so they must be deterministic. Register
 * yours here.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { ModelChoice } from '../schemas/agent-options.js';
import { named, type ModelSelector, type SelectorInput } from './hook-types.js';

const BySizeOptions = builtOnce('hooks/model-selectors.BySizeOptions', () =>
  z.strictObject({
    /** A call whose transcript holds at least this many messages, or bytes, goes to `large`. */
    atLeast: z.strictObject({ messages: z.number().int().min(1).optional(), bytes: z.number().int().min(1).optional() }),
    large: ModelChoice,
    /** @default the agent's model */
    small: ModelChoice.optional(),
  }),
);

const ByContextOptions = builtOnce('hooks/model-selectors.ByContextOptions', () =>
  z.strictObject({
    /** A top-level key of the run's context, e.g. `tier`. */
    key: z.string().min(1),
    /** The context value (as text) to the model for it. */
    models: z.record(z.string(), ModelChoice),
    /** @default the agent's model */
    fallback: ModelChoice.optional(),
  }),
);

export const modelSelectors: Readonly<Record<string, ModelSelector>> = {
  /** A larger model once the conversation grows: `{atLeast: {messages: 40}, large: {model: 'gpt-4.1'}}`. */
  bySize: named(BySizeOptions, (input: SelectorInput, options) => {
    const { messages, bytes } = options.atLeast;
    const large = (messages !== undefined && input.messages >= messages) || (bytes !== undefined && input.transcriptBytes >= bytes);
    return large ? options.large : (options.small ?? { model: input.defaultModel });
  }),
  /** A model per customer tier (or any other context value): `{key: 'tier', models: {pro: {model: 'gpt-4.1'}}}`. */
  byContext: named(ByContextOptions, (input: SelectorInput, options) => {
    const value = Object.hasOwn(input.context, options.key) ? input.context[options.key] : undefined;
    const key = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    const chosen = key !== undefined && Object.hasOwn(options.models, key) ? options.models[key] : undefined;
    return chosen ?? options.fallback ?? { model: input.defaultModel };
  }),
};
