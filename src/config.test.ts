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
        /must be an http\(s\) URL \(the list is split at commas: write a comma inside a URL as %2C\)\n.*at HITL_WEBHOOK_URLS\[1\]/,
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
    expect(readEnvConfig({ PATH: '/bin', TEMPORAL_CLI_PATH: '/bin/temporal' }).HITL_API_PORT).toBe(8787);
  });

  it('refuses every HITL_ variable that is not a setting, naming the nearest when there is one', () => {
    const meant = {
      HITL_ENCRYPTIONKEYS: 'HITL_ENCRYPTION_KEYS',
      HITL_REQUIRE_SIGNED_DECISONS: 'HITL_REQUIRE_SIGNED_DECISIONS',
      HITL_REQUIRESIGNEDDECISIONS: 'HITL_REQUIRE_SIGNED_DECISIONS',
      HITL_SIGNINGKEY: 'HITL_SIGNING_KEY',
      HITL_CODEC_ALLOW_ANON: 'HITL_CODEC_ALLOW_ANONYMOUS',
      HITL_FOUREYES: 'HITL_FOUR_EYES',
      HITL_API_TOKENS_PATH: 'HITL_API_TOKENS_FILE',
      hitl_api_port: 'HITL_API_PORT',
    };
    for (const [name, setting] of Object.entries(meant))
      expect(() => readEnvConfig({ [name]: 'true' }), name).toThrow(`✖ ${name} is not a setting; did you mean ${setting}?`);
    expect(() => readEnvConfig({ HITL_SOMETHING_ELSE: '1' })).toThrow(
      'Invalid environment:\n✖ HITL_SOMETHING_ELSE is not a setting (README, "Configuration", lists them)',
    );
  });

  it('takes the HITL_ variables the tests, the scripts and the deploy files read, though they are not settings', () => {
    const others = [
      'HITL_RECORD_HISTORIES',
      'HITL_ZOD_PROPERTY_RUNS',
      'HITL_JSON_SCHEMA_PROPERTY_RUNS',
      'HITL_PYTHON_VENV',
      'HITL_SEARCH_ATTRIBUTES',
    ];
    expect(readEnvConfig(Object.fromEntries(others.map((name) => [name, '1']))).HITL_API_PORT).toBe(8787);
  });
});

describe('numbers', () => {
  it('takes whole numbers in digits, and port 0 (a free port)', () => {
    expect(readEnvConfig({ HITL_API_PORT: '0', HITL_API_RATE_LIMIT: '1200', HITL_WORKER_MAX_CACHED_RUNS: '200' })).toMatchObject({
      HITL_API_PORT: 0,
      HITL_API_RATE_LIMIT: 1200,
      HITL_WORKER_MAX_CACHED_RUNS: 200,
    });
  });

  it('refuses numbers in another form, saying the form and the range', () => {
    for (const value of ['0x1F90', '1e3', '80.0', '-1', ' 80', '8O8O', 'Infinity'])
      expect(() => readEnvConfig({ HITL_API_PORT: value }), value).toThrow(
        /✖ must be a whole number from 0 to 65535, in digits\n {2}→ at HITL_API_PORT/,
      );
  });

  it("refuses numbers out of each setting's range, naming the range", () => {
    const refused = {
      HITL_API_PORT: ['65536', 'from 0 to 65535'],
      HITL_DEV_SERVER_PORT: ['0', 'from 1 to 65535'],
      HITL_API_BODY_LIMIT_BYTES: ['1000', 'from 262144 to 2097152 bytes'],
      HITL_WORKER_MAX_CACHED_RUNS: ['1000000', 'from 1 to 10000 runs'],
      HITL_API_RATE_LIMIT: ['0', 'from 1 to 100000 requests a minute'],
      HITL_CONNECT_TIMEOUT_MS: ['3600001', 'from 0 to 3600000 ms'],
      HITL_WORKER_HEAP_GROWTH_PERCENT: ['401', 'from 0 to 400 percent'],
      HITL_WORKER_SENT_MESSAGES_MIB: ['0', 'from 1 to 1024 MiB'],
    };
    for (const [name, [value, range]] of Object.entries(refused))
      expect(() => readEnvConfig({ [name]: value }), name).toThrow(`must be a whole number ${range}, in digits\n  → at ${name}`);
    expect(readEnvConfig({ HITL_API_BODY_LIMIT_BYTES: String(2 * 1024 * 1024) }).HITL_API_BODY_LIMIT_BYTES).toBe(2_097_152);
    expect(readEnvConfig({ HITL_WORKER_SENT_MESSAGES_MIB: '256' }).HITL_WORKER_SENT_MESSAGES_MIB).toBe(256);
    expect(readEnvConfig({ HITL_WORKER_SENT_MESSAGES_MIB: '1024' }).HITL_WORKER_SENT_MESSAGES_MIB).toBe(1024);
    expect(() => readEnvConfig({ HITL_WORKER_SENT_MESSAGES_MIB: '1025' })).toThrow('from 1 to 1024 MiB');
    expect(readEnvConfig({ HITL_API_BODY_LIMIT_BYTES: '262144' }).HITL_API_BODY_LIMIT_BYTES).toBe(262_144);
  });
});

describe('URLs, names and addresses', () => {
  it('refuses a URL that is not http(s) in every URL setting', () => {
    const settings = [
      'TEMPORAL_UI_URL',
      'OPENAI_BASE_URL',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'HITL_OIDC_ISSUER',
    ];
    for (const name of settings) {
      for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'not a url'])
        expect(() => readEnvConfig({ [name]: url }), `${name}=${url}`).toThrow(`✖ must be an http(s) URL\n  → at ${name}`);
      expect(readEnvConfig({ [name]: 'https://example.com/x' })[name as 'TEMPORAL_UI_URL']).toBe('https://example.com/x');
    }
  });

  it('refuses a task queue, namespace or issuer padded with spaces or holding a line break', () => {
    expect(() => readEnvConfig({ TEMPORAL_TASK_QUEUE: ' q ' })).toThrow('✖ must not begin or end with spaces\n  → at TEMPORAL_TASK_QUEUE');
    expect(() => readEnvConfig({ TEMPORAL_NAMESPACE: 'prod\n' })).toThrow(/must not begin or end with spaces\n {2}→ at TEMPORAL_NAMESPACE/);
    expect(() => readEnvConfig({ HITL_TOKEN_ISSUER: 'hi\ttl' })).toThrow(/must not hold control characters.*\n {2}→ at HITL_TOKEN_ISSUER/);
    expect(readEnvConfig({ TEMPORAL_TASK_QUEUE: 'my queue' }).TEMPORAL_TASK_QUEUE).toBe('my queue');
    // What no one types: a zero-width space in an issuer no token carries, a no-break space in a model name, a padded host.
    for (const [name, value] of [
      ['HITL_TOKEN_ISSUER', 'hitl\u200b'],
      ['OPENAI_MODEL', 'gpt\u00a04.1'],
    ])
      expect(() => readEnvConfig({ [name]: value }), name).toThrow(
        `must not hold invisible characters or spaces other than " "\n  → at ${name}`,
      );
    expect(() => readEnvConfig({ HITL_API_HOST: ' 0.0.0.0' })).toThrow('✖ must not begin or end with spaces\n  → at HITL_API_HOST');
  });

  it('takes the metrics endpoint as IP:port, refusing a port out of range or a host name', () => {
    for (const address of ['0.0.0.0:9464', '127.0.0.1:1', '[::]:9464', '[::1]:65535'])
      expect(readEnvConfig({ HITL_WORKER_METRICS_ADDRESS: address }).HITL_WORKER_METRICS_ADDRESS).toBe(address);
    for (const address of ['0.0.0.0:99999', '0.0.0.0:0', 'localhost:9464', '0.0.0.0', '999.0.0.1:9464', '[::1:9464'])
      expect(() => readEnvConfig({ HITL_WORKER_METRICS_ADDRESS: address }), address).toThrow(
        /must be IP:port with a port from 1 to 65535.*\n {2}→ at HITL_WORKER_METRICS_ADDRESS/,
      );
  });
});
