import { describe, expect, it } from 'vitest';
import { modelStreaming, readEnvConfig } from './config.js';

describe('model streaming configuration', () => {
  it('streams by default, with the batching defaults', () => {
    expect(modelStreaming(readEnvConfig({}))).toEqual({});
  });

  it('takes the batch interval and size from the environment, and can be turned off', () => {
    expect(modelStreaming(readEnvConfig({ HITL_STREAM_BATCH_INTERVAL_MS: '500', HITL_STREAM_MAX_BATCH_CHARS: '200' }))).toEqual({
      batchIntervalMs: 500,
      maxBatchChars: 200,
    });
    expect(modelStreaming(readEnvConfig({ HITL_MODEL_STREAMING: 'false', HITL_STREAM_BATCH_INTERVAL_MS: '500' }))).toBeUndefined();
  });

  it('refuses a batch larger than a token event may carry, naming the variable', () => {
    expect(() => readEnvConfig({ HITL_STREAM_MAX_BATCH_CHARS: '9000' })).toThrow(/HITL_STREAM_MAX_BATCH_CHARS/);
    expect(() => readEnvConfig({ HITL_STREAM_BATCH_INTERVAL_MS: '1' })).toThrow(/HITL_STREAM_BATCH_INTERVAL_MS/);
  });
});
