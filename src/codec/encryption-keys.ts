/**
 * Payload encryption keys, by id. Keys rotate by adding a new id and making it current: payloads written under
 * older ids stay readable for as long as their keys are configured.
 */
import { z } from 'zod';
import type { EnvConfig } from '../config.js';
import { readJsonSetting } from '../json-setting.js';

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
  const keys = readJsonSetting(
    'HITL_ENCRYPTION_KEYS',
    { inline: config.HITL_ENCRYPTION_KEYS, file: config.HITL_ENCRYPTION_KEYS_FILE },
    EncryptionKeys,
  );
  if (!keys) return undefined;
  const ids = Object.keys(keys);
  const currentId = config.HITL_ENCRYPTION_KEY_ID ?? (ids.length === 1 ? ids[0] : undefined);
  if (!currentId || !keys[currentId]) {
    throw new Error(`Set HITL_ENCRYPTION_KEY_ID to the key that encrypts new payloads (one of: ${ids.join(', ')}).`);
  }
  return { currentId, keys: new Map(Object.entries(keys)) };
}
