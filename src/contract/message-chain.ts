/**
 * A model call's messages by reference: a run's model call names the messages it sent its previous call by their
 * chain hash, and carries only those that follow. Every call used to carry the whole transcript as its activity input,
 * so a run's history grew with the square of its steps; now each step adds what is new. The history alone still says
 * what every call sent (`sentMessagesOf` rebuilds it from a run's model-call inputs, in order), and the worker rebuilds
 * a call's messages from what it sent before, or asks the run (src/activities/sent-messages-cache.ts).
 *
 * The chain hash of messages m1…mn is h(n), with h(0) = "" and h(i) = hex SHA-256 of h(i-1), a newline and mi's
 * JSON: the JSON that carries the message in a payload, so the workflow, the worker and a reader of the history hash
 * the same text. Pure JavaScript, as the workflow needs.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { ChatMessage } from '../schemas/chat-message.js';

export const EMPTY_CHAIN = '';

/**
 * The error type of a model call whose messages by reference its worker did not keep and could not ask its run for
 * (no worker answered the query in time): asked again, as the call is retried. Also the final type of "not held" on
 * the last attempt of a call scheduled by code that does not take `MessagesNotHeld` as final, which knows only this
 * one (src/activities/ask-run.ts).
 */
export const MESSAGES_UNAVAILABLE = 'MessagesUnavailable';

/**
 * The error type of a model call whose run answered that it holds no such messages: its code makes other messages
 * than the code that scheduled the call (a deploy reworded a note without a patch). The worker reports it as
 * retryable, because in a fleet mid-deploy another worker's code may still hold them, so a run with no other way out
 * keeps the call's retries; a run that can send the call whole instead (patch messagesWholeWhenUnavailable) schedules
 * it as final.
 */
export const MESSAGES_NOT_HELD = 'MessagesNotHeld';

export interface MessagesByReference {
  /** The first `count` messages are those the run sent its previous model call, whose chain hash was `hash`. */
  known?: { count: number; hash: string };
  /** The messages after them. */
  added: ChatMessage[];
  /** The chain hash of all of them: what the call sends is checked against it. */
  hash: string;
}

/** How a model call's input carries its messages: whole (runs before the change), or by reference. */
export interface ModelCallMessages {
  messages?: ChatMessage[];
  messagesByReference?: MessagesByReference;
}

/** The chain hash of `message` after messages whose chain hash is `previous`. */
export function chainHash(previous: string, message: ChatMessage): string {
  return bytesToHex(sha256(utf8ToBytes(`${previous}\n${JSON.stringify(message)}`)));
}

/** The chain hash after each of `messages`, continuing `chain` (the hashes after each of the messages before them). */
export function extendChain(chain: readonly string[], messages: readonly ChatMessage[]): string[] {
  const extended = [...chain];
  for (const message of messages) extended.push(chainHash(extended.at(-1) ?? EMPTY_CHAIN, message));
  return extended;
}

/**
 * What each of a run's model calls sent, from their inputs in the order the run scheduled them: a call given whole
 * (`messages`, as before the change) or by reference. Throws where a reference does not match the call before it,
 * which the run never writes.
 */
export function sentMessagesOf(inputs: readonly ModelCallMessages[]): ChatMessage[][] {
  const sent: ChatMessage[][] = [];
  let chain: string[] = [];
  for (const input of inputs) {
    if (!input.messagesByReference) {
      sent.push(input.messages ?? []);
      chain = extendChain([], input.messages ?? []);
      continue;
    }
    const { known, added, hash } = input.messagesByReference;
    const count = known?.count ?? 0;
    if (known && (chain.length < count || chain[count - 1] !== known.hash)) {
      throw new Error(`model call ${sent.length + 1} refers to ${count} messages the call before it did not send`);
    }
    const messages = [...(sent.at(-1) ?? []).slice(0, count), ...added];
    chain = extendChain(chain.slice(0, count), added);
    if ((chain.at(-1) ?? EMPTY_CHAIN) !== hash) throw new Error(`model call ${sent.length + 1}'s messages do not hash to ${hash}`);
    sent.push(messages);
  }
  return sent;
}
