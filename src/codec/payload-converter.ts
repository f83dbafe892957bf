/**
 * The workflow bundle's payload converter (the SDK's `payloadConverterPath`): Temporal's default, except that a
 * payload it cannot decode becomes a value workflow code refuses, never an error (src/contract/undecodable-payload.ts).
 * Encoding is unchanged, so every client and SDK speaks to it as to the default.
 */
import { defaultPayloadConverter, type Payload, type PayloadConverter } from '@temporalio/common';
import { UNDECODABLE_ENCODING, decodeFailure, undecodable } from '../contract/undecodable-payload.js';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

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
    try {
      return defaultPayloadConverter.fromPayload<T>(payload, context, hint as never);
    } catch (err) {
      return undecodable(decodeFailure(payload, err)) as T;
    }
  }
}

export const payloadConverter = new TolerantPayloadConverter();
