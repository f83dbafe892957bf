/**
 * The options LangGraph's `create_react_agent` offers, as data an agent declares and a run records when it starts
 * (src/schemas/agent-snapshot.ts), so a paused run keeps the hooks, model selector and breakpoints it started with:
 * model hooks, a model selector, breakpoints, and the shapes hooks hand back.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { LIMITS } from '../contract/limits.js';
import { OnTimeout } from './approval-policy.js';
import { ToolMessage, UserMessage } from './chat-message.js';
import { Duration } from './duration.js';
import { ToolArgs } from './tool-args.js';

const Name = builtOnce('schemas/agent-options.Name', () => z.string().min(1).max(128));

/**
 * A model hook by name: a pure function the workflow runs (`'trimMessages'`, or `{hook, options}`; registered in
 * src/hooks/model-hooks.ts), or an activity for hooks that need I/O (`{activity, options}`; registered on the worker).
 */
export const ModelHookRef = builtOnce('schemas/agent-options.ModelHookRef', () =>
  z.union([
    Name,
    z.strictObject({ hook: Name, options: z.unknown().optional() }),
    z.strictObject({ activity: Name, options: z.unknown().optional() }),
  ]),
);

/** A hook as a run records it. */
export const ModelHookUse = builtOnce('schemas/agent-options.ModelHookUse', () =>
  z.object({ kind: z.enum(['workflow', 'activity']), name: z.string(), options: z.unknown().optional() }),
);

/** A named, pure model selector (src/hooks/model-selectors.ts): `'bySize'` or `{selector, options}`. */
export const ModelSelectorRef = builtOnce('schemas/agent-options.ModelSelectorRef', () =>
  z.union([Name, z.strictObject({ selector: Name, options: z.unknown().optional() })]),
);
export const ModelSelectorUse = builtOnce('schemas/agent-options.ModelSelectorUse', () =>
  z.object({ name: z.string(), options: z.unknown().optional() }),
);

/** What a selector chooses for one call. */
export const ModelChoice = builtOnce('schemas/agent-options.ModelChoice', () =>
  z.strictObject({
    model: Name,
    baseURL: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
  }),
);

export const BREAKPOINTS = ['beforeModel', 'afterModel', 'beforeTools'] as const;
export const BreakpointKind = builtOnce('schemas/agent-options.BreakpointKind', () => z.enum(BREAKPOINTS));

/** The `toolName` a breakpoint waits under (never a tool's: tool names have no `:`). */
export function breakpointToolName(kind: BreakpointKind): string {
  return `breakpoint:${kind}`;
}

/** `true` pauses at every such point; an object says how long it waits, who decides, and (beforeTools) for which tools. */
export const BreakpointSetting = builtOnce('schemas/agent-options.BreakpointSetting', () =>
  z.union([
    z.boolean(),
    z.strictObject({
      /** beforeTools only: pause only when the reply calls one of these tools. @default every tool */
      tools: z.array(Name).min(1).optional(),
      /** @default the policy's timeout */
      timeout: Duration.optional(),
      /** `approve` continues, `reject` rejects (before the model: the run stops). @default the policy's onTimeout */
      onTimeout: OnTimeout.optional(),
      /** Identities or groups who may decide; anyone when omitted. */
      approvers: z.array(z.string().min(1)).min(1).optional(),
    }),
  ]),
);

/** LangGraph's `interrupt_before` / `interrupt_after`: where a run pauses for a human. */
export const Interrupts = builtOnce('schemas/agent-options.Interrupts', () =>
  z.strictObject({
    beforeModel: BreakpointSetting.optional(),
    afterModel: BreakpointSetting.optional(),
    beforeTools: BreakpointSetting.optional(),
  }),
);

/** A tool call as hooks and people write it: a known id keeps the call, a call without one is new. */
export const WrittenToolCall = builtOnce('schemas/agent-options.WrittenToolCall', () =>
  z.strictObject({
    id: z.string().min(1).max(300).optional(),
    name: Name,
    /** The arguments: an object, or JSON text (checked like the model's, when the step opens). */
    args: z.union([ToolArgs, z.string().max(LIMITS.argumentsBytes)]),
  }),
);

/** A reply as hooks and people write it. */
export const WrittenReply = builtOnce('schemas/agent-options.WrittenReply', () =>
  z.strictObject({
    content: z.string().max(LIMITS.replyTextBytes).nullable(),
    toolCalls: z.array(WrittenToolCall).max(LIMITS.toolCallsPerReply).default([]),
  }),
);

/** What an edit of each breakpoint's `args` must look like: what it shows, changed. */
export const BREAKPOINT_EDITS = builtOnce(
  'schemas/agent-options.BREAKPOINT_EDITS',
  () =>
    ({
      /** The messages the model has not seen yet: user messages, and the answers to its calls (ids kept, in order). */
      beforeModel: z.strictObject({
        messages: z
          .array(z.discriminatedUnion('role', [UserMessage.strict(), ToolMessage.strict()]))
          .min(1)
          .max(1000),
      }),
      /** The reply: its text and its tool calls. */
      afterModel: WrittenReply,
      /** The tool calls, before any runs. */
      beforeTools: z.strictObject({ toolCalls: z.array(WrittenToolCall).max(LIMITS.toolCallsPerReply) }),
    }) satisfies Record<BreakpointKind, z.ZodType>,
);

/** What an `afterModel` hook decides about a reply. */
export const AfterModelVerdict = builtOnce('schemas/agent-options.AfterModelVerdict', () =>
  z.discriminatedUnion('action', [
    z.strictObject({ action: z.literal('accept') }),
    z.strictObject({ action: z.literal('replace'), reply: WrittenReply }),
    /** The reply is dropped; the model is asked again and reads the reason. */
    z.strictObject({ action: z.literal('retry'), reason: z.string().min(1).max(4000) }),
    /** The run ends (status `Stopped`) with this output. */
    z.strictObject({ action: z.literal('stop'), output: z.string().max(LIMITS.replyTextBytes).optional() }),
  ]),
);

export type ModelHookRef = z.infer<typeof ModelHookRef>;
export type ModelHookUse = z.infer<typeof ModelHookUse>;
export type ModelSelectorRef = z.infer<typeof ModelSelectorRef>;
export type ModelSelectorUse = z.infer<typeof ModelSelectorUse>;
export type ModelChoice = z.infer<typeof ModelChoice>;
export type BreakpointKind = z.infer<typeof BreakpointKind>;
export type BreakpointSetting = z.infer<typeof BreakpointSetting>;
export type Interrupts = z.infer<typeof Interrupts>;
export type WrittenToolCall = z.infer<typeof WrittenToolCall>;
export type WrittenReply = z.infer<typeof WrittenReply>;
export type WrittenReplyInput = z.input<typeof WrittenReply>;
export type AfterModelVerdict = z.infer<typeof AfterModelVerdict>;
export type AfterModelVerdictInput = z.input<typeof AfterModelVerdict>;

/** The recorded form of a hook reference. */
export function hookUse(ref: ModelHookRef): ModelHookUse {
  if (typeof ref === 'string') return { kind: 'workflow', name: ref };
  if ('hook' in ref) return { kind: 'workflow', name: ref.hook, ...(ref.options !== undefined && { options: ref.options }) };
  return { kind: 'activity', name: ref.activity, ...(ref.options !== undefined && { options: ref.options }) };
}

export function selectorUse(ref: ModelSelectorRef): ModelSelectorUse {
  return typeof ref === 'string' ? { name: ref } : { name: ref.selector, ...(ref.options !== undefined && { options: ref.options }) };
}

/** A run's breakpoints as they apply: the run's own setting for each kind, else its agent's. */
export function breakpointsAsApplied(own: Interrupts | undefined, agent: Interrupts | undefined): Interrupts {
  return Object.fromEntries(BREAKPOINTS.map((kind) => [kind, own?.[kind] ?? agent?.[kind]]));
}
