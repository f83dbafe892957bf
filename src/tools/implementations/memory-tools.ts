/**
 * Long-term memory through the store across runs: one namespace per user (`['memories', <context.userId>]`), so a
 * run for alice remembers what an earlier run for alice was told, and never what bob's were.
 */
import { ToolRefusedError } from '../../errors.js';
import { implementTool, type ToolContext } from '../implement-tool.js';
import { recall } from '../specs/recall.js';
import { remember } from '../specs/remember.js';

/** The run's context as these tools need it: agents that use them declare `userId` in their `contextSchema`. */
type MemoryContext = { userId?: unknown };

function namespaceOf(ctx: ToolContext<MemoryContext>): string[] {
  const userId = ctx.context.userId;
  if (typeof userId !== 'string' || !userId) throw new ToolRefusedError('This run has no userId in its context, so it has no memory.');
  return ['memories', userId];
}

export function memoryTools() {
  return [
    implementTool(remember, async ({ key, fact }, ctx: ToolContext<MemoryContext>) => {
      const { version } = await ctx.store.put(namespaceOf(ctx), key, { fact });
      return `Remembered ${key} (version ${version}).`;
    }),
    implementTool(recall, async ({ key }, ctx: ToolContext<MemoryContext>) => {
      const namespace = namespaceOf(ctx);
      if (key) {
        const item = await ctx.store.get(namespace, key);
        return item ? { [key]: item.value } : `Nothing is remembered under ${key}.`;
      }
      const { items } = await ctx.store.list(namespace, { limit: 100 });
      return items.length ? Object.fromEntries(items.map((item) => [item.key, item.value])) : 'Nothing is remembered yet.';
    }),
  ];
}
