/**
 * Encrypts every payload (workflow inputs, activity arguments and results, queries, memo) with AES-256-GCM, so
 * tool arguments never sit in plain text in Temporal's history. The key id travels in the payload's metadata,
 * which is what makes keys rotatable. Search attributes are not payloads and stay readable (they hold tool names
 * and counts, never arguments).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';
import type { KeyRing } from './encryption-keys.js';

// @temporalio/proto is CommonJS: Node's ESM loader exposes it as a default export only.
const { temporal } = proto;

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const text = (value: string) => new TextEncoder().encode(value);

export class AesGcmPayloadCodec implements PayloadCodec {
  constructor(private readonly ring: KeyRing) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const key = this.ring.keys.get(this.ring.currentId)!;
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(CIPHER, key, iv);
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: { encoding: text(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: text(this.ring.currentId) },
        data: new Uint8Array(sealed),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (new TextDecoder().decode(payload.metadata?.encoding ?? new Uint8Array()) !== ENCRYPTED_ENCODING) return payload;
      const keyId = new TextDecoder().decode(payload.metadata?.[KEY_ID_METADATA] ?? new Uint8Array());
      const key = this.ring.keys.get(keyId);
      if (!key) throw new Error(`Cannot decrypt a payload: key "${keyId}" is not configured (HITL_ENCRYPTION_KEYS).`);
      const sealed = Buffer.from(payload.data ?? []);
      return temporal.api.common.v1.Payload.decode(opened(sealed, key, keyId));
    });
  }
}

/**
 * The plain bytes of a sealed payload. Node's words for a key that does not open it ("Unsupported state or unable to
 * authenticate data") say nothing a reader can act on: the likely cause is another key under the same id.
 */
function opened(sealed: Buffer, key: Buffer, keyId: string): Uint8Array {
  try {
    const decipher = createDecipheriv(CIPHER, key, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new Error(
      `Cannot decrypt a payload: the key configured as "${keyId}" does not open it (HITL_ENCRYPTION_KEYS holds another key under that id, or the payload was altered).`,
    );
  }
}
