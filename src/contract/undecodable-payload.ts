/**
 * A payload a worker cannot decode (an encoding it does not know, data that is not what its encoding says, a
 * ciphertext no configured key opens) reaches workflow code as this value instead of as an error. The SDK decodes a
 * signal's, an update's or a run's input before any handler of ours runs, so an error there fails the workflow task,
 * every retry of it too: one such signal would wedge its run for good. As a value, it is refused like any other
 * input that is not what the handler takes (src/codec/payload-converter.ts, src/codec/tolerant-codec.ts).
 */

import type { Payload } from '@temporalio/common';

/** The encoding of the payload a codec puts in place of one it cannot decode; its data is the reason, in UTF-8. */
export const UNDECODABLE_ENCODING = 'binary/undecodable';

const KEY = 'hitl.undecodablePayload';

export interface UndecodablePayload {
  readonly [KEY]: string;
}

export function undecodable(reason: string): UndecodablePayload {
  return { [KEY]: reason };
}

/** Why `value` could not be decoded, if it is what an undecodable payload became. */
export function undecodableReason(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, KEY)) return undefined;
  return String((value as UndecodablePayload)[KEY]);
}

/** Why decoding `payload` failed with `err`, as the converter and the codecs say it: its encoding, and the error. */
export function decodeFailure(payload: Payload, err: unknown): string {
  const encoding = payload.metadata?.encoding ? new TextDecoder().decode(payload.metadata.encoding) : '';
  return `encoding ${encoding || '(none)'}: ${(err instanceof Error ? err.message : String(err)).slice(0, 200)}`;
}

/** The refusal's words, the same for every input. */
export function undecodableMessage(what: string, reason: string): string {
  return `The ${what} could not be decoded (${reason}); send JSON (encoding json/plain), as Temporal's SDKs do by default.`;
}
