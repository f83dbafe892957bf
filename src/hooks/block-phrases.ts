/**
 * `blockPhrases`: a guardrail after the model. A reply whose text or tool-call arguments contain one of the phrases
 * is sent back to the model with a reason (or stops the run), like a LangGraph `post_model_hook` guardrail.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import type { AfterModelVerdictInput } from '../schemas/agent-options.js';
import { named, type AfterModelInput } from './hook-types.js';

export const BlockPhrasesOptions = builtOnce('hooks/block-phrases.BlockPhrasesOptions', () =>
  z.strictObject({
    phrases: z.array(z.string().min(1).max(200)).min(1).max(200),
    /** What a match does. @default 'retry' */
    action: z.enum(['retry', 'stop']).default('retry'),
    /** Told to the model with a retry; `{{phrase}}` is the phrase found. @default a sentence naming the phrase */
    reason: z.string().min(1).max(2000).optional(),
    /** @default false */
    caseSensitive: z.boolean().default(false),
  }),
);

export const blockPhrases = named(BlockPhrasesOptions, (input: AfterModelInput, options): AfterModelVerdictInput => {
  const fold = (text: string) => (options.caseSensitive ? text : text.toLowerCase());
  const texts = [input.reply.content ?? '', ...input.reply.toolCalls.map((c) => c.arguments)].map(fold);
  const phrase = options.phrases.find((p) => texts.some((text) => text.includes(fold(p))));
  if (phrase === undefined) return { action: 'accept' };
  if (options.action === 'stop') return { action: 'stop', output: `The reply was withheld: it contained "${phrase}".` };
  const reason =
    options.reason?.replaceAll('{{phrase}}', phrase) ?? `Your reply contained "${phrase}", which is not allowed. Answer again without it.`;
  return { action: 'retry', reason };
});
