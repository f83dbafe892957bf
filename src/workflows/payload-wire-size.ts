/**
 * How many characters a payload takes in a Workflow Stream's wire form (base64 of the protobuf Payload, as
 * @temporalio/workflow-streams' encodePayloadWire writes it), counted without writing it. The run's stream bounds
 * what it keeps by these sizes at every publish; encoding each event only to measure it cost a base64 string built
 * a character at a time (a tool's 64 KiB result, 87,000 of them) inside the workflow task of every step and
 * decision. payload-wire-size.test.ts checks the count against the library's encoder for any payload.
 */
import type { Payload } from '@temporalio/common';

/** Bytes of a protobuf varint. */
function varintBytes(n: number): number {
  let bytes = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    bytes += 1;
  }
  return bytes;
}

/** A length-delimited field: its tag, its length's varint, its bytes. */
function fieldBytes(length: number): number {
  return 1 + varintBytes(length) + length;
}

/** UTF-8 bytes of a string (metadata keys), as TextEncoder would write them; a lone surrogate takes three. */
function utf8Bytes(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** The protobuf Payload's bytes: each metadata entry (key, value) as a map entry, then the data when not empty. */
function payloadProtoBytes(payload: Payload): number {
  let bytes = 0;
  const metadata = payload.metadata ?? {};
  for (const key of Object.keys(metadata)) {
    const value = metadata[key];
    if (value == null) continue;
    bytes += fieldBytes(fieldBytes(utf8Bytes(key)) + fieldBytes(value.length));
  }
  const data = payload.data;
  if (data && data.length > 0) bytes += fieldBytes(data.length);
  return bytes;
}

/** `encodePayloadWire(payload).length`: padded base64, four characters per three bytes. */
export function payloadWireSize(payload: Payload): number {
  return 4 * Math.ceil(payloadProtoBytes(payload) / 3);
}
