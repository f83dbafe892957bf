/**
 * `trimMessages`: what the model sees is cut to a token budget (LangChain's `trim_messages`, strategy "last"):
 * the system message and the first user message, then the newest messages that fit. A tool call and its answers
 * stay together, so the model is never sent an answer without its call. Tokens are estimated, not counted (about
 * four characters a token, plus a few per message, as LangChain's `count_tokens_approximately`): the budget is a
 * bound on size, not the model's exact tokenizer.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import { named, type BeforeModelInput } from './hook-types.js';

export const TrimOptions = builtOnce('hooks/trim-messages.TrimOptions', () =>
  z.strictObject({
    /** Estimated tokens the model may be sent. */
    maxTokens: z.number().int().min(16),
    /** Keep the first user message (the task) however old. @default true */
    keepFirstUser: z.boolean().default(true),
  }),
);

/** Approximate tokens of one message: characters / 4, plus 3 for the message itself. */
export function approximateTokens(message: ChatMessage): number {
  const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
  const chars = (message.content ?? '').length + calls.reduce((n, c) => n + c.function.name.length + c.function.arguments.length, 0);
  return Math.ceil(chars / 4) + 3;
}

export function trimToBudget(messages: readonly ChatMessage[], options: z.infer<typeof TrimOptions>): ChatMessage[] {
  const head: number[] = [];
  if (messages[0]?.role === 'system') head.push(0);
  const firstUser = messages.findIndex((m) => m.role === 'user');
  if (options.keepFirstUser && firstUser >= 0) head.push(firstUser);
  let budget = options.maxTokens - head.reduce((n, i) => n + approximateTokens(messages[i]!), 0);

  // Newest first, in units: an assistant message with calls and the answers that follow it are one unit.
  const rest = messages.map((_, i) => i).filter((i) => !head.includes(i));
  const kept: number[] = [];
  let unit: number[] = [];
  for (let k = rest.length - 1; k >= 0; k--) {
    const i = rest[k]!;
    unit.unshift(i);
    if (messages[i]!.role === 'tool' && k > 0) continue;
    const cost = unit.reduce((n, j) => n + approximateTokens(messages[j]!), 0);
    // The newest unit always goes: the model must see what it is answering.
    if (kept.length > 0 && cost > budget) break;
    // Answers whose call was trimmed away (a unit that starts with a tool message) never go alone.
    if (messages[unit[0]!]!.role !== 'tool') kept.unshift(...unit);
    budget -= cost;
    unit = [];
  }
  return [...head, ...kept].sort((a, b) => a - b).map((i) => messages[i]!);
}

export const trimMessages = named(TrimOptions, (input: BeforeModelInput, options) => trimToBudget(input.messages, options));
