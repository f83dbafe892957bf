/**
 * The worker's codecs, tolerant: a payload a codec cannot decode (a ciphertext no configured key opens, a forged
 * or damaged one) becomes an undecodable payload, which workflow code refuses as input, instead of an error. The
 * worker decodes a workflow task's payloads before the run sees them, so an error would fail the task, and every
 * retry of it: one forged signal would wedge its run for good (src/contract/undecodable-payload.ts). Clients keep
 * the codecs as they are, and see a codec's error as it is.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import { UNDECODABLE_ENCODING, decodeFailure } from '../contract/undecodable-payload.js';

const text = (value: string) => new TextEncoder().encode(value);

export class TolerantCodec implements PayloadCodec {
  constructor(private readonly codec: PayloadCodec) {}

  encode(payloads: Payload[]): Promise<Payload[]> {
    return this.codec.encode(payloads);
  }

  /** Each payload on its own, so one that cannot be decoded leaves the others as they are. */
  decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(
      payloads.map(async (payload) => {
        try {
          const [decoded] = await this.codec.decode([payload]);
          return decoded!;
        } catch (err) {
          return { metadata: { encoding: text(UNDECODABLE_ENCODING) }, data: text(decodeFailure(payload, err)) };
        }
      }),
    );
  }
}
