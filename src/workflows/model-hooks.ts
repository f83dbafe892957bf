/**
 * Runs an agent's model hooks: pure ones here in the workflow (src/hooks/model-hooks.ts), the rest as an activity
 * (`runModelHook`). Either way the answer is checked like outside input, and one that is not a hook's answer fails
 * the run with a ModelHookError naming the hook: a bug in a hook must be loud, never a silent change of course.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { ModelHookError } from '../errors.js';
import { afterModelHooks, beforeModelHooks } from '../hooks/model-hooks.js';
import type { AfterModelInput, BeforeModelInput, Named } from '../hooks/hook-types.js';
import { AfterModelVerdict, type ModelHookUse } from '../schemas/agent-options.js';
import { ChatMessage } from '../schemas/chat-message.js';
import type { RunModelHookInput } from '../activities/model-hook.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import { summaryText } from './summary-text.js';

const HookMessages = builtOnce('workflows/model-hooks.HookMessages', () => z.array(ChatMessage).min(1).max(100_000));

/** What the model sees instead of the transcript; the transcript itself does not change. */
export async function beforeModel(use: ModelHookUse, input: BeforeModelInput): Promise<ChatMessage[]> {
  const answer = await runHook('beforeModel', use, input, beforeModelHooks);
  const parsed = HookMessages.safeParse(answer);
  if (!parsed.success) throw new ModelHookError('beforeModel', use.name, `it returned no valid messages: ${z.prettifyError(parsed.error)}`);
  const problem = unansweredCall(parsed.data);
  if (problem) throw new ModelHookError('beforeModel', use.name, problem);
  return parsed.data;
}

export async function afterModel(use: ModelHookUse, input: AfterModelInput): Promise<AfterModelVerdict> {
  const answer = await runHook('afterModel', use, input, afterModelHooks);
  const parsed = AfterModelVerdict.safeParse(answer);
  if (!parsed.success) throw new ModelHookError('afterModel', use.name, `it returned no valid verdict: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

async function runHook<I extends BeforeModelInput | AfterModelInput>(
  kind: 'beforeModel' | 'afterModel',
  use: ModelHookUse,
  input: I,
  registry: Readonly<Record<string, Named<I, unknown>>>,
): Promise<unknown> {
  if (use.kind === 'activity') {
    return activities.runModelHook.executeWithOptions(
      { ...ACTIVITY_OPTIONS.hook, summary: summaryText(`${kind} ${use.name} · step ${input.call.step}`) },
      [{ kind, name: use.name, options: use.options, input } as RunModelHookInput],
    );
  }
  const hook = Object.hasOwn(registry, use.name) ? registry[use.name] : undefined;
  if (!hook) throw new ModelHookError(kind, use.name, 'no hook of that name is registered (src/hooks/model-hooks.ts)');
  try {
    return hook.run(input, hook.options.parse(use.options ?? {}));
  } catch (err) {
    throw new ModelHookError(kind, use.name, err instanceof z.ZodError ? z.prettifyError(err) : String(err));
  }
}

/**
 * The model API refuses a tool message whose call it was not sent, and a call without its answers: a hook that
 * trims messages must keep them together.
 */
export function unansweredCall(messages: readonly ChatMessage[]): string | undefined {
  const open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'tool') {
      if (!open.delete(message.tool_call_id)) return `it sent the answer to call ${message.tool_call_id} without the call`;
      continue;
    }
    if (open.size > 0) return `it sent call ${[...open][0]} without its answer`;
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) open.add(call.id);
  }
  return open.size > 0 ? `it sent call ${[...open][0]} without its answer` : undefined;
}
