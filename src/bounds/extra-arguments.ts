/**
 * Each of our signals, updates and starts takes one argument. Temporal hands a handler whatever a sender put after
 * it, and a handler that reads only the first would drop the rest without a word: a second decision, a second
 * message, options meant for the run. Input that comes with more is refused whole instead, so the sender learns
 * that nothing of it was taken.
 */
export function extraArgumentsMessage(what: string, extra: readonly unknown[]): string | undefined {
  if (extra.length === 0) return undefined;
  const more = extra.length === 1 ? '1 more argument' : `${extra.length} more arguments`;
  return `The ${what} is one argument, and ${more} came with it; nothing was taken. Send it alone, with everything in it.`;
}
