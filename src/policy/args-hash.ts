/**
 * A stable hash of a call's arguments: SHA-256 over RFC 8785 canonical JSON, so key order and number formatting
 * never change it. Pure JavaScript, so the workflow, the client and any other language compute the same value.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import * as canonicalizeModule from 'canonicalize';

// The package is CommonJS with a default-export typing; Node, tsx and webpack disagree on where the function is.
const canonicalize = ((canonicalizeModule as { default?: unknown }).default ?? canonicalizeModule) as (
  input: unknown,
) => string | undefined;

export function argsHash(args: unknown): string {
  return `sha256:${canonicalSha256(args ?? {})}`;
}

/** Hex SHA-256 of any JSON value's canonical form. */
export function canonicalSha256(value: unknown): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalize(value) ?? 'null')));
}
