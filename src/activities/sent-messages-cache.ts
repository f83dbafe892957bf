/**
 * What runs sent their latest model calls, kept by the worker, so that a call given its messages by reference
 * (src/contract/message-chain.ts) is rebuilt from them without asking anyone. A run whose latest call this worker did
 * not run or no longer keeps (another worker ran it, this one restarted, or let it go for room) is asked for those
 * messages instead, by their hash: a query, which adds nothing to its history.
 */
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { EMPTY_CHAIN, extendChain, MESSAGES_NOT_HELD, MESSAGES_UNAVAILABLE, type MessagesByReference } from '../contract/message-chain.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import { truncateChars } from '../bounds/truncate.js';

/** Enough for a few hundred runs at the transcript's byte budget; every run's latest call at once, in most fleets. */
export const DEFAULT_SENT_MESSAGES_BYTES = 64 * 1024 * 1024;

interface Kept {
  messages: ChatMessage[];
  chain: string[];
  bytes: number;
}

export class SentMessagesCache {
  /** By run, the least recently used first. */
  readonly #runs = new Map<string, Kept>();
  #bytes = 0;

  constructor(readonly maxBytes = DEFAULT_SENT_MESSAGES_BYTES) {}

  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The messages `reference` stands for, in the run `runKey` (its workflow and run ids), which then are its latest call's.
   * @param ask asks the run for its latest call's messages by their chain hash (modelCallMessagesQuery)
   */
  async messagesOf(runKey: string, reference: MessagesByReference, ask: (hash: string) => Promise<unknown>): Promise<ChatMessage[]> {
    const kept = this.#runs.get(runKey);
    const count = reference.known?.count ?? 0;
    if (!reference.known || kept?.chain[count - 1] === reference.known.hash) {
      const chain = extendChain(kept?.chain.slice(0, count) ?? [], reference.added);
      if ((chain.at(-1) ?? EMPTY_CHAIN) === reference.hash) {
        return this.#keep(runKey, [...(kept?.messages.slice(0, count) ?? []), ...reference.added], chain);
      }
    }
    let answer: unknown;
    try {
      answer = await ask(reference.hash);
    } catch (err) {
      if (err instanceof CancelledFailure) throw err;
      // No answer (no worker could run the query in time, or the run is not there): asked again on the call's retry.
      // Only the error's first words: the failure is kept in the run's history in clear, even where payloads are
      // encrypted, and a query's error can carry what the run holds.
      throw ApplicationFailure.retryable(
        `could not ask the run for the messages of its latest model call: ${briefly(err)}`,
        MESSAGES_UNAVAILABLE,
      );
    }
    if (!Array.isArray(answer)) {
      throw ApplicationFailure.retryable(
        `the run does not hold the messages ${reference.hash.slice(0, 12)}… of its latest model call (its code makes other messages than the code that scheduled the call, or it is not ours)`,
        MESSAGES_NOT_HELD,
      );
    }
    const messages = answer as ChatMessage[];
    const chain = extendChain([], messages);
    if ((chain.at(-1) ?? EMPTY_CHAIN) !== reference.hash) {
      throw ApplicationFailure.retryable(`the run's messages do not hash to ${reference.hash.slice(0, 12)}…`, MESSAGES_NOT_HELD);
    }
    return this.#keep(runKey, messages, chain);
  }

  #keep(runKey: string, messages: ChatMessage[], chain: string[]): ChatMessage[] {
    this.#forget(runKey);
    // Bytes of UTF-8, as the model is sent them: a transcript in another script is two or three times its characters.
    const bytes = messages.reduce((sum, m) => sum + Buffer.byteLength(JSON.stringify(m)), 0);
    this.#runs.set(runKey, { messages, chain, bytes });
    this.#bytes += bytes;
    // The latest run stays, however large: its next call would only ask again.
    for (const [key] of this.#runs) {
      if (this.#bytes <= this.maxBytes || key === runKey) break;
      this.#forget(key);
    }
    return messages;
  }

  #forget(runKey: string): void {
    const kept = this.#runs.get(runKey);
    if (!kept) return;
    this.#runs.delete(runKey);
    this.#bytes -= kept.bytes;
  }
}

/** An error's name and message, at most 200 characters. */
function briefly(err: unknown): string {
  return truncateChars(err instanceof Error ? `${err.name}: ${err.message}` : String(err), 200);
}
