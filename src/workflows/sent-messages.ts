/**
 * What this run sent its latest model call, so that the next call carries only the messages that follow them
 * (src/contract/message-chain.ts), and a worker that has not kept them can ask (modelCallMessagesQuery).
 */
import { EMPTY_CHAIN, extendChain, type MessagesByReference } from '../contract/message-chain.js';
import type { ChatMessage } from '../schemas/chat-message.js';

export class SentMessages {
  #messages: readonly ChatMessage[] = [];
  /** The chain hash after each of `#messages`. */
  #chain: readonly string[] = [];

  /** `messages` by reference to the latest call's, as far as they begin with them; then they are the latest call's. */
  reference(messages: readonly ChatMessage[]): MessagesByReference {
    let count = 0;
    while (count < messages.length && count < this.#messages.length && sameMessage(messages[count]!, this.#messages[count]!)) count++;
    const added = messages.slice(count);
    this.#chain = extendChain(this.#chain.slice(0, count), added);
    this.#messages = messages.map(frozen);
    return {
      ...(count > 0 && { known: { count, hash: this.#chain[count - 1]! } }),
      added,
      hash: this.#chain.at(-1) ?? EMPTY_CHAIN,
    };
  }

  /**
   * The chain hash of what the latest call sent, as its worker reports it. It differs from what this code made of the
   * same transcript only where the run replays on code that words a message otherwise than the code that sent it (a
   * deploy without a patch). What was sent is then not what this run holds, so the next call refers to nothing and
   * carries its messages whole: no worker needs to ask for them, and the history still says what each call sent.
   */
  sent(hash: unknown): void {
    // No hash (a result from before the change, or one not written by our worker) says nothing either way.
    if (typeof hash !== 'string' || hash === (this.#chain.at(-1) ?? EMPTY_CHAIN)) return;
    this.#messages = [];
    this.#chain = [];
  }

  /** The latest call's messages, if `hash` is their chain hash; nothing else is told. */
  hashed(hash: unknown): ChatMessage[] | null {
    return typeof hash === 'string' && hash === (this.#chain.at(-1) ?? EMPTY_CHAIN) ? [...this.#messages] : null;
  }
}

/**
 * The same object, or a copy with the same JSON (a beforeModel hook's messages are new objects every call). The same
 * object cannot have changed since it was sent: sent messages are frozen, so code that would change one in place
 * fails loudly instead of the next call referring to what the worker no longer has.
 */
function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function frozen(message: ChatMessage): ChatMessage {
  if (message.role === 'assistant' && message.tool_calls) {
    for (const call of message.tool_calls) Object.freeze(Object.freeze(call).function);
    Object.freeze(message.tool_calls);
  }
  return Object.freeze(message);
}
