/**
 * The encodings of a compact JWS (RFC 7515): unpadded base64url segments of bytes and of UTF-8 JSON. Decoding is
 * strict (no padding, no other alphabet, no stray bits, valid UTF-8), and never throws: it answers undefined.
 * Pure JavaScript, safe in the workflow sandbox.
 */
import { base64urlnopad, utf8 } from '@scure/base';

export function encodeSegment(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes);
}

export function decodeSegment(segment: string): Uint8Array | undefined {
  try {
    return base64urlnopad.decode(segment);
  } catch {
    return undefined;
  }
}

export function encodeJsonSegment(value: unknown): string {
  return encodeSegment(utf8.decode(JSON.stringify(value)));
}

/** The JSON object a segment holds, or undefined when it is not one. */
export function decodeJsonSegment(segment: string): Record<string, unknown> | undefined {
  const bytes = decodeSegment(segment);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(utf8.encode(bytes));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** ASCII bytes of the signing input `<header>.<payload>` (both segments are base64url, hence ASCII). */
export function signingInput(header: string, payload: string): Uint8Array {
  return utf8.decode(`${header}.${payload}`);
}

/** Big-endian unsigned integer of a base64url segment (RSA modulus and exponent). */
export function segmentToBigInt(segment: string): bigint | undefined {
  const bytes = decodeSegment(segment);
  if (!bytes || bytes.length === 0) return undefined;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}
