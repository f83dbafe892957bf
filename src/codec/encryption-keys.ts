/**
 * Payload encryption keys, by id. Keys rotate by adding a new id and making it current: payloads written under
 * older ids stay readable for as long as their keys are configured.
 */
import { z } from 'zod';
import type { EnvConfig } from '../config.js';
import { readJsonSetting } from '../json-setting.js';

const KEY_FORMAT = 'each key must be 32 random bytes, base64-encoded (e.g. `openssl rand -base64 32`)';
/**
 * Strict base64 of exactly 32 bytes: Node's decoder skips what is not base64, so a 43-letter passphrase or a key
 * with a typo pasted in would otherwise decode to 32 bytes of something. A key of one byte repeated (all zeros, a
 * placeholder) is no secret.
 */
const Key = z
  .string()
  .regex(/^[A-Za-z0-9+/]{43}=$/, KEY_FORMAT)
  .transform((value) => Buffer.from(value, 'base64'))
  .refine((key) => key.some((byte) => byte !== key[0]), { message: `${KEY_FORMAT}; this one is one byte repeated` });

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
  if (!keys) {
    // A key id names keys that are not there (a misspelt HITL_ENCRYPTION_KEYS): payloads would go out in the clear.
    if (config.HITL_ENCRYPTION_KEY_ID)
      throw new Error('HITL_ENCRYPTION_KEY_ID is set, but no keys are: set HITL_ENCRYPTION_KEYS or HITL_ENCRYPTION_KEYS_FILE.');
    return undefined;
  }
  const ids = Object.keys(keys);
  const currentId = config.HITL_ENCRYPTION_KEY_ID ?? (ids.length === 1 ? ids[0] : undefined);
  // Its own key only: `toString` or `constructor` would find the object's methods.
  if (!currentId || !Object.hasOwn(keys, currentId)) {
    throw new Error(`Set HITL_ENCRYPTION_KEY_ID to the key that encrypts new payloads (one of: ${ids.join(', ')}).`);
  }
  return { currentId, keys: new Map(Object.entries(keys)) };
}
