/**
 * Model hooks that run in the workflow, by name. They must be pure and deterministic (no clock, randomness, I/O
 * or env), since a replay runs them again and must get the same answer. Register yours here; hooks that need I/O
 * are activities, registered on the worker instead (`modelHooks` in ActivityDeps).
 */
import { blockPhrases } from './block-phrases.js';
import type { AfterModelHook, BeforeModelHook } from './hook-types.js';
import { trimMessages } from './trim-messages.js';

/** Rewrite what the model sees (the recorded transcript stays as it is). */
export const beforeModelHooks: Readonly<Record<string, BeforeModelHook>> = {
  /** `{hook: 'trimMessages', options: {maxTokens: 4000}}` */
  trimMessages,
};

/** Accept, replace or retry a reply, or stop the run. */
export const afterModelHooks: Readonly<Record<string, AfterModelHook>> = {
  /** `{hook: 'blockPhrases', options: {phrases: ['guaranteed refund']}}` */
  blockPhrases,
};
