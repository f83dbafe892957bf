/**
 * What model hooks and model selectors see and return. A hook that runs in the workflow must be pure: no clock,
 * randomness, I/O or env (like the predicates in src/policy/predicates.ts); one that needs I/O is an activity,
 * registered on the worker (`modelHooks` in ActivityDeps) with the same signature, and may be async.
 */
import type { z } from 'zod';
import type { AfterModelVerdictInput, ModelChoice } from '../schemas/agent-options.js';
import type { ChatMessage } from '../schemas/chat-message.js';

/** One model call, as hooks see it. */
export interface ModelCallInfo {
  agent: string;
  /** The run's model calls so far, this one included. */
  step: number;
  /** This turn's model calls, this one included (`maxSteps` counts these). */
  turnStep: number;
  /** The model chosen for this call. */
  model: string;
  /** The run's context, checked against the agent's `contextSchema`; the model never sees it. */
  context: Readonly<Record<string, unknown>>;
}

export interface BeforeModelInput {
  /** The recorded transcript; the hook returns what the model sees instead (the transcript itself is unchanged). */
  messages: readonly ChatMessage[];
  call: ModelCallInfo;
}

/** A reply as an afterModel hook sees it: our call ids, arguments as the model wrote them. */
export interface ReplyView {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
}

export interface AfterModelInput {
  reply: ReplyView;
  messages: readonly ChatMessage[];
  call: ModelCallInfo;
  /** How many replies in a row the afterModel hook has sent back for a retry. */
  retries: number;
}

export interface SelectorInput {
  agent: string;
  step: number;
  turnStep: number;
  /** Messages in the transcript, and their size in bytes. */
  messages: number;
  transcriptBytes: number;
  /** The agent's own model, or the worker's default. */
  defaultModel: string;
  context: Readonly<Record<string, unknown>>;
}

/** A named pure function with the schema of its options (checked when the agent is defined, and at each call). */
export interface Named<I, O, S extends z.ZodType = z.ZodType> {
  options: S;
  run(input: I, options: z.infer<S>): O;
}

export type BeforeModelHook = Named<BeforeModelInput, readonly ChatMessage[]>;
export type AfterModelHook = Named<AfterModelInput, AfterModelVerdictInput>;
export type ModelSelector = Named<SelectorInput, ModelChoice>;

/** Hooks that run as an activity: registered on the worker, looked up by name. */
export interface ActivityModelHooks {
  beforeModel?: Readonly<
    Record<string, (input: BeforeModelInput, options: unknown) => Promise<readonly ChatMessage[]> | readonly ChatMessage[]>
  >;
  afterModel?: Readonly<
    Record<string, (input: AfterModelInput, options: unknown) => Promise<AfterModelVerdictInput> | AfterModelVerdictInput>
  >;
}

/** Keeps a hook's options type tied to its schema. */
export function named<I, O, S extends z.ZodType>(options: S, run: (input: I, options: z.infer<S>) => O): Named<I, O, S> {
  return { options, run };
}
