/**
 * The workflow bundle's payload converter (the SDK's `payloadConverterPath`): Temporal's default, except that a
 * payload it cannot decode becomes a value workflow code refuses, never an error (src/contract/undecodable-payload.ts),
 * and so does a binary/plain one: every input of the workflow's is JSON.
 * Encoding is unchanged, so every client and SDK speaks to it as to the default.
 */
import { defaultPayloadConverter, type Payload, type PayloadConverter } from '@temporalio/common';
import { UNDECODABLE_ENCODING, decodeFailure, undecodable } from '../contract/undecodable-payload.js';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const BINARY_PLAIN = 'binary/plain';

type Context = Parameters<PayloadConverter['fromPayload']>[1];
type Hint = Parameters<PayloadConverter['fromPayload']>[2];

export class TolerantPayloadConverter implements PayloadConverter {
  toPayload<T>(value: T, context?: Context, hint?: Parameters<PayloadConverter['toPayload']>[2]): Payload {
    return defaultPayloadConverter.toPayload(value, context, hint as never);
  }

  fromPayload<T>(payload: Payload, context?: Context, hint?: Hint): T {
    // A codec that could not decode the payload put its reason here (src/codec/tolerant-codec.ts).
    if (payload.metadata?.encoding && decode(payload.metadata.encoding) === UNDECODABLE_ENCODING) {
      return undecodable(decode(payload.data ?? new Uint8Array())) as T;
    }
    // Bytes (what the default makes of binary/plain) are no input workflow code takes: zod would list them as an
    // object's keys "0", "1", … instead of saying they are not JSON.
    if (payload.metadata?.encoding && decode(payload.metadata.encoding) === BINARY_PLAIN) {
      return undecodable(decodeFailure(payload, new Error('bytes, where JSON is taken'))) as T;
    }
    try {
      return defaultPayloadConverter.fromPayload<T>(payload, context, hint as never);
    } catch (err) {
      return undecodable(decodeFailure(payload, err)) as T;
    }
  }
}

export const payloadConverter = new TolerantPayloadConverter();
