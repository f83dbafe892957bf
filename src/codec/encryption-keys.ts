/**
 * Payload encryption keys, by id. Keys rotate by adding a new id and making it current: payloads written under
 * older ids stay readable for as long as their keys are configured.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { EnvConfig } from '../config.js';

const Key = z
  .string()
  .transform((value) => Buffer.from(value, 'base64'))
  .refine((key) => key.length === 32, { message: 'each key must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)' });

/** `{"<key id>": "<base64 of 32 random bytes>"}` */
export const EncryptionKeys = z
  .record(
    z
      .string()
      .min(1)
      .max(64)
      .regex(/^[\w.-]+$/),
    Key,
  )
  .refine((keys) => Object.keys(keys).length > 0, {
    message: 'configure at least one key',
  });

export interface KeyRing {
  /** The key new payloads are encrypted with. */
  currentId: string;
  keys: ReadonlyMap<string, Buffer>;
}

/** Undefined when encryption is not configured. */
export function keyRingFromEnv(config: EnvConfig): KeyRing | undefined {
  const raw = config.HITL_ENCRYPTION_KEYS_FILE ? readFileSync(config.HITL_ENCRYPTION_KEYS_FILE, 'utf8') : config.HITL_ENCRYPTION_KEYS;
  if (!raw) return undefined;
  const parsed = EncryptionKeys.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`Invalid HITL_ENCRYPTION_KEYS:\n${z.prettifyError(parsed.error)}`);
  const ids = Object.keys(parsed.data);
  const currentId = config.HITL_ENCRYPTION_KEY_ID ?? (ids.length === 1 ? ids[0] : undefined);
  if (!currentId || !parsed.data[currentId]) {
    throw new Error(`Set HITL_ENCRYPTION_KEY_ID to the key that encrypts new payloads (one of: ${ids.join(', ')}).`);
  }
  return { currentId, keys: new Map(Object.entries(parsed.data)) };
}
