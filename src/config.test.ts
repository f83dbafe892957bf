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

describe('webhook configuration', () => {
  const secret = { HITL_WEBHOOK_SECRET: 'a-secret-of-sixteen-or-more' };

  it('takes http and https URLs', () => {
    const urls = 'http://127.0.0.1:9000/hook,https://hooks.example.com/hitl';
    expect(readEnvConfig({ HITL_WEBHOOK_URLS: urls, ...secret }).HITL_WEBHOOK_URLS).toEqual(urls.split(','));
  });

  it('refuses a URL no POST can reach, naming the variable', () => {
    for (const url of ['ftp://127.0.0.1/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'mailto:ops@example.com'])
      expect(() => readEnvConfig({ HITL_WEBHOOK_URLS: `https://hooks.example.com/ok,${url}`, ...secret })).toThrow(
        /must be an http\(s\) URL\n.*at HITL_WEBHOOK_URLS\[1\]/,
      );
  });
});
