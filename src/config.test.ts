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

describe('the environment as a whole', () => {
  it('reads a value of spaces as unset, not as 0', () => {
    expect(readEnvConfig({ HITL_API_PORT: '  ', HITL_CONNECT_TIMEOUT_MS: ' ' })).toMatchObject({
      HITL_API_PORT: 8787,
      HITL_CONNECT_TIMEOUT_MS: 60_000,
    });
  });

  it('refuses a misspelt setting that would leave encryption or signing off, naming the one meant', () => {
    expect(() => readEnvConfig({ HITL_ENCRYPTION_KEY: '{}' })).toThrow(
      'Invalid environment:\n✖ HITL_ENCRYPTION_KEY is not a setting; did you mean HITL_ENCRYPTION_KEYS?',
    );
    expect(() => readEnvConfig({ HITL_REQUIRE_SIGNED_DECISION: 'true', HITL_ENCRYPTION_KEYS_FIlE: '/keys.json' })).toThrow(
      /HITL_REQUIRE_SIGNED_DECISION is not a setting; did you mean HITL_REQUIRE_SIGNED_DECISIONS\?\n✖ HITL_ENCRYPTION_KEYS_FIlE is not a setting; did you mean HITL_ENCRYPTION_KEYS_FILE\?/,
    );
    // Others are left alone: the environment holds many variables that are not ours.
    expect(readEnvConfig({ HITL_SOMETHING_ELSE: '1', PATH: '/bin' }).HITL_API_PORT).toBe(8787);
  });
});
