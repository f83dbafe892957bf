import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNDECODABLE_ENCODING, undecodableReason } from '../contract/undecodable-payload.js';
import { payloadConverter } from './payload-converter.js';
import { TolerantCodec } from './tolerant-codec.js';

const text = (value: string) => new TextEncoder().encode(value);

describe('the workflow payload converter', () => {
  it('encodes and decodes every JSON value as Temporal’s default does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const payload = payloadConverter.toPayload(value);
        expect(payload).toEqual(defaultPayloadConverter.toPayload(value));
        expect(payloadConverter.fromPayload(payload)).toEqual(defaultPayloadConverter.fromPayload(payload));
        expect(undecodableReason(payloadConverter.fromPayload(payload))).toBeUndefined();
      }),
    );
  });

  it('turns what the default cannot decode into an undecodable value that says why', () => {
    const cases: [Payload, string][] = [
      [{ metadata: { encoding: text('json/protobuf') }, data: text('{}') }, 'Unknown encoding: json/protobuf'],
      [{ metadata: {}, data: text('{}') }, 'encoding (none)'],
      [{ metadata: { encoding: text('json/plain') }, data: text('{"a": [') }, 'encoding json/plain'],
      [{ metadata: { encoding: text(UNDECODABLE_ENCODING) }, data: text('key "k9" is not configured') }, 'key "k9" is not configured'],
    ];
    for (const [payload, reason] of cases) {
      expect(() => defaultPayloadConverter.fromPayload(payload)).toThrow();
      expect(undecodableReason(payloadConverter.fromPayload(payload))).toContain(reason);
    }
  });

  it('takes a binary/plain payload for the bytes it is, which no input of the workflow is, not for an object', () => {
    const bytes = { metadata: { encoding: text('binary/plain') }, data: text('{"decisions": []}') };
    expect(defaultPayloadConverter.fromPayload(bytes)).toBeInstanceOf(Uint8Array);
    expect(undecodableReason(payloadConverter.fromPayload(bytes))).toBe('encoding binary/plain: bytes, where JSON is taken');
  });
});

describe('the tolerant codec', () => {
  it('decodes each payload on its own: one that fails becomes undecodable, the others are decoded', async () => {
    const rot = (p: Payload): Payload => ({ ...p, data: p.data!.map((b) => b ^ 1) });
    const codec = new TolerantCodec({
      encode: async (ps) => ps.map(rot),
      decode: async (ps) =>
        ps.map((p) =>
          new TextDecoder().decode(p.data).includes('bad')
            ? (() => {
                throw new Error('no key');
              })()
            : rot(p),
        ),
    });
    const good = defaultPayloadConverter.toPayload({ ok: 1 });
    const [sealed] = await codec.encode([good]);
    const decoded = await codec.decode([sealed!, { metadata: { encoding: text('binary/encrypted') }, data: text('bad') }]);
    expect(decoded[0]).toEqual(good);
    expect(new TextDecoder().decode(decoded[1]!.metadata!.encoding)).toBe(UNDECODABLE_ENCODING);
    expect(undecodableReason(payloadConverter.fromPayload(decoded[1]!))).toBe('encoding binary/encrypted: no key');
  });
});
