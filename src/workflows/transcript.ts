/**
 * The conversation a run keeps and sends to the model, in the Chat Completions shape. It stays within a byte
 * budget: the model activity's input and the continue-as-new payload must stay far below Temporal's 2 MB limit
 * however long the run or large its tool results. Over budget, the oldest contents are cut with a marker, then
 * the oldest messages dropped (never the system message, and never a tool call without its answer). Offsets
 * count every message the run ever held, so a viewer's position survives cuts and continue-as-new compaction.
 */
import { LIMITS } from '../contract/limits.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import { jsonStringBytes, truncateBytes, truncateJsonBytes, utf8Length } from '../bounds/truncate.js';
import { PATCHES, takesPatch } from './patches.js';

/** Older contents shrink to this before messages are dropped. */
const SHRUNK_CONTENT_BYTES = 2 * 1024;

export class Transcript {
  #messages: ChatMessage[];
  /** Messages before `#messages[0]` (compacted or dropped), counted from the run's first message. */
  #dropped: number;

  constructor(messages: ChatMessage[] = [], dropped = 0) {
    this.#messages = messages;
    this.#dropped = dropped;
  }

  /** Picks up a carried transcript (continue-as-new). */
  restore(messages: ChatMessage[], dropped: number): void {
    this.#messages = messages;
    this.#dropped = dropped;
  }

  get messages(): readonly ChatMessage[] {
    return this.#messages;
  }

  /** Every message the run ever held, compacted and dropped ones included. */
  get total(): number {
    return this.#dropped + this.#messages.length;
  }

  get dropped(): number {
    return this.#dropped;
  }

  append(...messages: ChatMessage[]): void {
    this.#messages.push(...messages);
    this.#fitBudget();
  }

  /** Where the messages since the model last spoke begin (a user message, or the answers to its calls). */
  get tailStart(): number {
    for (let i = this.#messages.length - 1; i >= 0; i--) if (this.#messages[i]!.role === 'assistant') return i + 1;
    const first = this.#messages.findIndex((m) => m.role !== 'system');
    return first < 0 ? this.#messages.length : first;
  }

  /** A human edited the messages since the model last spoke (at a breakpoint before the model). */
  replaceTail(messages: ChatMessage[]): void {
    this.#messages.splice(this.tailStart, Infinity, ...messages);
    this.#fitBudget();
  }

  /** Continue-as-new compaction: `kept` replaces everything, and what it left out counts as dropped. */
  replace(kept: ChatMessage[]): void {
    this.#dropped += this.#messages.length - kept.length;
    this.#messages = kept;
  }

  /** Messages from absolute position `from`, as many as fit in `budgetBytes` (at least one, if any). */
  page(from: number, budgetBytes: number): { messages: ChatMessage[]; from: number; more: boolean } {
    const start = Math.min(Math.max(0, from - this.#dropped), this.#messages.length);
    const page: ChatMessage[] = [];
    let bytes = 0;
    for (let i = start; i < this.#messages.length; i++) {
      const size = messageBytes(this.#messages[i]!);
      if (page.length > 0 && bytes + size > budgetBytes) return { messages: page, from: start + this.#dropped, more: true };
      page.push(this.#messages[i]!);
      bytes += size;
    }
    return { messages: page, from: start + this.#dropped, more: false };
  }

  #fitBudget(): void {
    this.#dropped += fitMessages(this.#messages, LIMITS.transcriptBytes);
  }
}

/**
 * Cuts `messages`, in place, to `budgetBytes`: first the oldest large contents (the newest message keeps its content:
 * the model needs the latest), then the oldest messages after the system message, a tool call together with its
 * answers. The system message and the newest message stay, so the result may still be over budget.
 * @returns how many messages were dropped
 */
export function fitMessages(messages: ChatMessage[], budgetBytes: number): number {
  let bytes = messages.reduce((sum, m) => sum + messageBytes(m), 0);
  if (bytes <= budgetBytes) return 0;
  const { size, shorten } = textMeasure();
  for (let i = 1; i < messages.length - 1 && bytes > budgetBytes; i++) {
    const message = messages[i]!;
    if (typeof message.content !== 'string' || size(message.content) <= SHRUNK_CONTENT_BYTES) continue;
    const before = messageBytes(message);
    messages[i] = { ...message, content: shorten(message.content, SHRUNK_CONTENT_BYTES) } as ChatMessage;
    bytes -= before - messageBytes(messages[i]!);
  }
  let dropped = 0;
  while (bytes > budgetBytes && messages.length > 2) {
    let end = 2;
    while (end < messages.length - 1 && messages[end]!.role === 'tool') end++;
    for (const message of messages.splice(1, end - 1)) bytes -= messageBytes(message);
    dropped += end - 1;
  }
  return dropped;
}

export function messageBytes(message: ChatMessage): number {
  const { size } = textMeasure();
  const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
  return size(message.content ?? '') + calls.reduce((sum, c) => sum + size(c.function.arguments) + c.function.name.length + 40, 60);
}

/**
 * How the budget counts a text: as the payloads that carry the transcript hold it (the model call's input, the
 * continue-as-new state), JSON escapes included, since patch escapedSizes; in UTF-8 before, which let text of
 * control characters take six times the budget there.
 */
function textMeasure(): { size: (text: string) => number; shorten: (text: string, maxBytes: number) => string } {
  return takesPatch(PATCHES.escapedSizes)
    ? { size: jsonStringBytes, shorten: truncateJsonBytes }
    : { size: utf8Length, shorten: truncateBytes };
}
