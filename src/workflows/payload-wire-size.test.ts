/** The counted wire size of a stream payload against the library's own encoder, for any payload. */
import type { Payload } from '@temporalio/common';
import { encodePayloadWire } from '@temporalio/workflow-streams/workflow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payloadWireSize } from './payload-wire-size.js';

const bytes = (maxLength: number) => fc.uint8Array({ maxLength });
const payloadArb: fc.Arbitrary<Payload> = fc.record(
  {
    // Keys in any script (lone surrogates too); values and data on both sides of the varint boundaries (128, 16,384),
    // which the test below hits exactly.
    metadata: fc.dictionary(fc.string({ unit: 'binary', maxLength: 20 }), fc.oneof(bytes(200), bytes(20_000)), { maxKeys: 4 }),
    data: fc.oneof(bytes(0), bytes(300), bytes(20_000)),
  },
  { requiredKeys: [] },
);

describe('payloadWireSize', () => {
  it('counts what encodePayloadWire writes, for any payload', () => {
    fc.assert(
      fc.property(payloadArb, (payload) => payloadWireSize(payload) === encodePayloadWire(payload).length),
      { numRuns: 500 },
    );
  });

  it('counts the payloads the run publishes: JSON events, one large', () => {
    const encoder = new TextEncoder();
    for (const data of ['{"type":"tool_call_started","id":"call-1"}', JSON.stringify({ content: 'é€😀'.repeat(30_000) }), '']) {
      const payload: Payload = { metadata: { encoding: encoder.encode('json/plain') }, data: encoder.encode(data) };
      expect(payloadWireSize(payload)).toBe(encodePayloadWire(payload).length);
    }
  });

  it('counts lengths at the varint boundaries, in data, in a metadata value and in a map entry', () => {
    for (const n of [0, 1, 2, 3, 125, 126, 127, 128, 129, 16_381, 16_382, 16_383, 16_384, 16_385]) {
      for (const payload of [
        { data: new Uint8Array(n) },
        { metadata: { e: new Uint8Array(n) } },
        { metadata: { ['k'.repeat(n)]: new Uint8Array(1) }, data: new Uint8Array(n) },
      ])
        expect(payloadWireSize(payload), `${n}`).toBe(encodePayloadWire(payload).length);
    }
  });

  it('skips metadata entries without a value, as the encoder does', () => {
    const payload = { metadata: { encoding: new Uint8Array([1]), gone: undefined as unknown as Uint8Array } };
    expect(payloadWireSize(payload)).toBe(encodePayloadWire(payload).length);
  });
});
