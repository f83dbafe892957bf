/**
 * Process configuration from the environment, read by the worker, the client, the CLI and the API; never by
 * workflow code. One schema, so a bad value fails at startup with the variable's name.
 */
import { z } from 'zod';
import type { TokenBatching } from './activities/token-publisher.js';
import { DEFAULT_TASK_QUEUE } from './contract/task-queue.js';
import { TOKEN_TEXT_MAX_CHARS } from './schemas/token-event.js';

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

export const EnvConfig = z
  .object({
    /**
     * Where Temporal is (host:port). When neither this nor the profile sets it, `npm start` runs a dev server and
     * other entry points use localhost:7233. The connection settings below go through `@temporalio/envconfig`
     * (src/connection/temporal-target.ts): each overrides the same setting of the profile in the config file.
     */
    TEMPORAL_ADDRESS: z.string().min(1).optional(),
    /** @default the profile's, else 'default' */
    TEMPORAL_NAMESPACE: z.string().min(1).optional(),
    /** An API key (Temporal Cloud): sent as a bearer token, and turns TLS on. */
    TEMPORAL_API_KEY: z.string().min(1).optional(),
    /** The profile to read from the config file. @default 'default' */
    TEMPORAL_PROFILE: z.string().min(1).optional(),
    /** The TOML config file of Temporal's CLI and SDKs. @default ~/.config/temporalio/temporal.toml */
    TEMPORAL_CONFIG_FILE: z.string().min(1).optional(),
    /** TLS on or off; on by itself when a certificate or an API key is configured. */
    TEMPORAL_TLS: z.stringbool().optional(),
    /** mTLS: the client certificate and its key, as a file path or as PEM text. */
    TEMPORAL_TLS_CLIENT_CERT_PATH: z.string().min(1).optional(),
    TEMPORAL_TLS_CLIENT_CERT_DATA: z.string().min(1).optional(),
    TEMPORAL_TLS_CLIENT_KEY_PATH: z.string().min(1).optional(),
    TEMPORAL_TLS_CLIENT_KEY_DATA: z.string().min(1).optional(),
    /** The CA that signed the server's certificate, when it is not a public one. @default the system's roots */
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: z.string().min(1).optional(),
    TEMPORAL_TLS_SERVER_CA_CERT_DATA: z.string().min(1).optional(),
    /** The name the server's certificate must carry, when it differs from the address's host. */
    TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
    /** How long a worker or the API keeps trying to reach Temporal at start before it exits non-zero. */
    HITL_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default(DEFAULT_TASK_QUEUE),
    OPENAI_BASE_URL: z.url().optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_MODEL: z.string().min(1).default('gpt-4.1'),
    /** Model calls stream and publish their text to the run's Workflow Stream, for watchers; `false`: whole replies. */
    HITL_MODEL_STREAMING: z.stringbool().default(true),
    /** Streamed text goes out in batches: at most this long after its first delta (TokenBatching, default 250). */
    HITL_STREAM_BATCH_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).optional(),
    /** ...or as soon as a batch holds this many characters (TokenBatching, default 1024). */
    HITL_STREAM_MAX_BATCH_CHARS: z.coerce.number().int().min(1).max(TOKEN_TEXT_MAX_CHARS).optional(),
    /** `npm start`: where the dev server keeps its SQLite file and the dev API tokens. */
    HITL_STATE_DIR: z.string().min(1).default('.temporal'),
    /** `npm start`: the dev server's gRPC and Web UI ports. */
    HITL_DEV_SERVER_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
    HITL_DEV_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
    /** A YAML or JSON file of agents (`{agents: [...]}`), served beside those in code (README, "Agents in a file"). */
    HITL_AGENTS_FILE: z.string().min(1).optional(),
    /** Where the demo tools keep their shop database, outbox and workspace. */
    HITL_DATA_DIR: z.string().min(1).default('.temporal/demo-data'),
    /** Runs a worker keeps in memory between decisions (see DEFAULT_MAX_CACHED_RUNS in src/worker.ts). */
    HITL_WORKER_MAX_CACHED_RUNS: z.coerce.number().int().min(1).optional(),
    /** V8's --optimize-for-size for the worker: less memory per paused run, less throughput (src/worker.ts). */
    HITL_WORKER_SMALL_HEAPS: z.stringbool().default(false),
    /** How far V8 lets the worker's heaps grow between full collections, in percent; 0 for V8's own heuristic (src/worker.ts). */
    HITL_WORKER_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(400).optional(),
    /** Comma-separated http(s) URLs that receive approval events. */
    HITL_WEBHOOK_URLS: commaList.pipe(z.array(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }))),
    HITL_WEBHOOK_SECRET: z.string().min(16).optional(),
    HITL_API_HOST: z.string().min(1).default('127.0.0.1'),
    HITL_API_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    /** JSON: `{"<token>": {"approver": "alice", "groups": ["finance"]}}`. */
    HITL_API_TOKENS: z.string().optional(),
    /** A file holding the same JSON (for secrets mounted as files). */
    HITL_API_TOKENS_FILE: z.string().optional(),
    /** Runs started over HTTP forbid their requester to approve their own gated calls. */
    HITL_FOUR_EYES: z.stringbool().default(false),
    HITL_API_BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    /** Requests per minute per token. */
    HITL_API_RATE_LIMIT: z.coerce.number().int().positive().default(300),
    /** Payload encryption: JSON `{"<key id>": "<base64 of 32 bytes>"}`, or a file holding it. */
    HITL_ENCRYPTION_KEYS: z.string().optional(),
    HITL_ENCRYPTION_KEYS_FILE: z.string().optional(),
    /** The key id that encrypts new payloads (required when several keys are configured). */
    HITL_ENCRYPTION_KEY_ID: z.string().optional(),
    /** Serve /codec/decode without a token (local development only: the dev server's UI sends none). */
    HITL_CODEC_ALLOW_ANONYMOUS: z.stringbool().default(false),
    /** Signed decisions (src/signing): the signer's private JWK (`hitl keygen`), or a file holding it. */
    HITL_SIGNING_KEY: z.string().optional(),
    HITL_SIGNING_KEY_FILE: z.string().optional(),
    /** The `iss` and `aud` of the decision tokens this project signs and trusts. */
    HITL_TOKEN_ISSUER: z.string().min(1).default('hitl'),
    HITL_TOKEN_AUDIENCE: z.string().min(1).default('hitl-decisions'),
    /** Public keys (a JWKS) trusted for HITL_TOKEN_ISSUER; during a rotation, old and new. Default: the signing key's. */
    HITL_TRUSTED_JWKS: z.string().optional(),
    HITL_TRUSTED_JWKS_FILE: z.string().optional(),
    /** An OpenID Connect provider whose ID tokens may sign decisions: issuer URL, client id, its JWKS, groups claim. */
    HITL_OIDC_ISSUER: z.string().min(1).optional(),
    HITL_OIDC_AUDIENCE: z.string().min(1).optional(),
    HITL_OIDC_JWKS: z.string().optional(),
    HITL_OIDC_JWKS_FILE: z.string().optional(),
    HITL_OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
    /** Every decision must carry a signed token, for agents that do not say otherwise (requireSignedDecisions). */
    HITL_REQUIRE_SIGNED_DECISIONS: z.stringbool().default(false),
    /**
     * Tracing (src/telemetry/tracing.ts), off by default: on when an OTLP endpoint is set or OTEL_TRACES_EXPORTER
     * names an exporter. Spans go out as OTLP over HTTP (JSON); the exporter reads the other OTEL_EXPORTER_OTLP_*
     * variables (headers, timeout) itself.
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
    OTEL_TRACES_EXPORTER: z.enum(['otlp', 'console', 'none']).optional(),
    OTEL_SDK_DISABLED: z.stringbool().default(false),
    /** @default 'hitl-worker', 'hitl-api' or 'hitl' (npm start), by process */
    OTEL_SERVICE_NAME: z.string().min(1).optional(),
    /** The worker's Prometheus endpoint (the SDK's metrics and ours, `hitl_*`), e.g. `0.0.0.0:9464`. @default off */
    HITL_WORKER_METRICS_ADDRESS: z
      .string()
      .regex(/^(\[[0-9a-fA-F:]+\]|[^\s:]+):\d{1,5}$/, 'must be host:port, e.g. 0.0.0.0:9464')
      .optional(),
    /** Base URL of the Temporal Web UI, for links from the API and the inbox. */
    TEMPORAL_UI_URL: z.url().default('http://localhost:8233'),
  })
  .superRefine((env, ctx) => {
    if (env.HITL_WEBHOOK_URLS.length > 0 && !env.HITL_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['HITL_WEBHOOK_SECRET'],
        message: 'is required when HITL_WEBHOOK_URLS is set: webhook events are signed with it',
      });
    }
  });

export type EnvConfig = z.infer<typeof EnvConfig>;

export function readEnvConfig(env: NodeJS.ProcessEnv = process.env): EnvConfig {
  // An empty variable (`FOO=` in compose files) means unset; so does one of spaces, which a number would read as 0.
  const set = Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== '');
  const misspelt = set.flatMap(([name]) => {
    const meant = settingMeant(name);
    return meant ? [`✖ ${name} is not a setting; did you mean ${meant}?`] : [];
  });
  if (misspelt.length) throw new Error(`Invalid environment:\n${misspelt.join('\n')}`);
  const parsed = EnvConfig.safeParse(Object.fromEntries(set));
  if (!parsed.success) throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const SETTINGS = Object.keys(EnvConfig.shape);

/**
 * The setting an unknown HITL_ variable was meant to be: the same name in other case, or one with a letter or two
 * more or fewer at its end (HITL_ENCRYPTION_KEY for HITL_ENCRYPTION_KEYS). Unknown variables are otherwise ignored,
 * as the environment holds many; but these would leave encryption or signed decisions off without a word.
 */
function settingMeant(name: string): string | undefined {
  if (SETTINGS.includes(name) || !name.toUpperCase().startsWith('HITL_')) return undefined;
  const upper = name.toUpperCase();
  return SETTINGS.find(
    (setting) =>
      setting === upper || ((setting.startsWith(upper) || upper.startsWith(setting)) && Math.abs(setting.length - upper.length) <= 2),
  );
}

/** The model calls' streaming option for ActivityDeps: undefined when streaming is off; unset values default. */
export function modelStreaming(config: EnvConfig): Partial<TokenBatching> | undefined {
  if (!config.HITL_MODEL_STREAMING) return undefined;
  return {
    ...(config.HITL_STREAM_BATCH_INTERVAL_MS !== undefined && { batchIntervalMs: config.HITL_STREAM_BATCH_INTERVAL_MS }),
    ...(config.HITL_STREAM_MAX_BATCH_CHARS !== undefined && { maxBatchChars: config.HITL_STREAM_MAX_BATCH_CHARS }),
  };
}
