import type { DataConverter } from '@temporalio/common';
import type { EnvConfig } from '../config.js';
import { AesGcmPayloadCodec } from './aes-gcm-codec.js';
import { keyRingFromEnv } from './encryption-keys.js';

/** The data converter every process uses: encrypting when keys are configured, Temporal's default otherwise. */
export function dataConverterFromEnv(config: EnvConfig): DataConverter | undefined {
  const ring = keyRingFromEnv(config);
  return ring ? { payloadCodecs: [new AesGcmPayloadCodec(ring)] } : undefined;
}
