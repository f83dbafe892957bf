/**
 * Process configuration from the environment, read by the worker, the client, the CLI and the API; never by
 * workflow code. One schema, so a bad value fails at startup with the variable's name.
 */
import { z } from 'zod';
import type { TokenBatching } from './activities/token-publisher.js';
import { LIMITS } from './contract/limits.js';
import { DEFAULT_TASK_QUEUE } from './contract/task-queue.js';
import { TOKEN_TEXT_MAX_CHARS } from './schemas/token-event.js';
import { unknownHitlVariables } from './setting-names.js';
import { exactName, httpUrl, port, socketAddress, wholeNumber } from './setting-values.js';

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
    TEMPORAL_ADDRESS: exactName().optional(),
    /** @default the profile's, else 'default' */
    TEMPORAL_NAMESPACE: exactName().optional(),
    /** An API key (Temporal Cloud): sent as a bearer token, and turns TLS on. */
    TEMPORAL_API_KEY: z.string().min(1).optional(),
    /** The profile to read from the config file. @default 'default' */
    TEMPORAL_PROFILE: exactName().optional(),
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
    HITL_CONNECT_TIMEOUT_MS: wholeNumber(0, 3_600_000, 'ms').default(60_000),
    TEMPORAL_TASK_QUEUE: exactName().default(DEFAULT_TASK_QUEUE),
    OPENAI_BASE_URL: httpUrl().optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_MODEL: exactName().default('gpt-4.1'),
    /** Model calls stream and publish their text to the run's Workflow Stream, for watchers; `false`: whole replies. */
    HITL_MODEL_STREAMING: z.stringbool().default(true),
    /** Streamed text goes out in batches: at most this long after its first delta (TokenBatching, default 250). */
    HITL_STREAM_BATCH_INTERVAL_MS: wholeNumber(10, 60_000, 'ms').optional(),
    /** ...or as soon as a batch holds this many characters (TokenBatching, default 1024). */
    HITL_STREAM_MAX_BATCH_CHARS: wholeNumber(1, TOKEN_TEXT_MAX_CHARS, 'characters').optional(),
    /** `npm start`: where the dev server keeps its SQLite file and the dev API tokens. */
    HITL_STATE_DIR: z.string().min(1).default('.temporal'),
    /** `npm start`: the dev server's gRPC and Web UI ports. */
    HITL_DEV_SERVER_PORT: port({ zero: false }).default(7233),
    HITL_DEV_UI_PORT: port({ zero: false }).default(8233),
    /** A YAML or JSON file of agents (`{agents: [...]}`), served beside those in code (README, "Agents in a file"). */
    HITL_AGENTS_FILE: z.string().min(1).optional(),
    /** Where the demo tools keep their shop database, outbox and workspace. */
    HITL_DATA_DIR: z.string().min(1).default('.temporal/demo-data'),
    /**
     * Runs a worker keeps in memory between decisions (see DEFAULT_MAX_CACHED_RUNS in src/worker.ts). About 0.65 MiB
     * each: 10,000 is 6.5 GiB, more than a worker is given; past it a typo (an extra zero or two) would be an
     * out-of-memory worker.
     */
    HITL_WORKER_MAX_CACHED_RUNS: wholeNumber(1, 10_000, 'runs').optional(),
    /**
     * How much of its runs' latest model calls' messages a worker keeps (src/activities/sent-messages-cache.ts), in MiB
     * of their JSON; a call of a run it let go asks the run for them. Counts JSON, not the heap it takes, which is more:
     * at most 1 GiB, so that the heap they take stays within what V8 gives a worker by default.
     */
    HITL_WORKER_SENT_MESSAGES_MIB: wholeNumber(1, 1024, 'MiB').optional(),
    /** V8's --optimize-for-size for the worker: less memory per paused run, less throughput (src/worker.ts). */
    HITL_WORKER_SMALL_HEAPS: z.stringbool().default(false),
    /** How far V8 lets the worker's heaps grow between full collections, in percent; 0 for V8's own heuristic (src/worker.ts). */
    HITL_WORKER_HEAP_GROWTH_PERCENT: wholeNumber(0, 400, 'percent').optional(),
    /** Comma-separated http(s) URLs that receive approval events. */
    HITL_WEBHOOK_URLS: commaList.pipe(
      z.array(httpUrl('must be an http(s) URL (the list is split at commas: write a comma inside a URL as %2C)')),
    ),
    HITL_WEBHOOK_SECRET: z.string().min(16).optional(),
    HITL_API_HOST: exactName().default('127.0.0.1'),
    /** 0: a free port, which the API's banner names (the tests use it). */
    HITL_API_PORT: port({ zero: true }).default(8787),
    /** JSON: `{"<token>": {"approver": "alice", "groups": ["finance"]}}`. */
    HITL_API_TOKENS: z.string().optional(),
    /** A file holding the same JSON (for secrets mounted as files). */
    HITL_API_TOKENS_FILE: z.string().optional(),
    /** Runs started over HTTP forbid their requester to approve their own gated calls. */
    HITL_FOUR_EYES: z.stringbool().default(false),
    /**
     * The largest request body the API reads. At least a decision input's limit (LIMITS.decisionInputBytes), so that
     * every decision a run accepts can be sent; at most Temporal's 2 MiB per payload, as a body becomes one (a start's
     * input, a decision's update): a larger one would be read only to be refused by Temporal.
     */
    HITL_API_BODY_LIMIT_BYTES: wholeNumber(LIMITS.decisionInputBytes, 2 * 1024 * 1024, 'bytes').default(1024 * 1024),
    /** Requests per minute per token (per address without one); at most 100,000, over 1,600 a second. */
    HITL_API_RATE_LIMIT: wholeNumber(1, 100_000, 'requests a minute').default(300),
    /** Payload encryption: JSON `{"<key id>": "<base64 of 32 bytes>"}`, or a file holding it. */
    HITL_ENCRYPTION_KEYS: z.string().optional(),
    HITL_ENCRYPTION_KEYS_FILE: z.string().optional(),
    /** The key id that encrypts new payloads (required when several keys are configured). */
    HITL_ENCRYPTION_KEY_ID: exactName().optional(),
    /** Serve /codec/decode without a token (local development only: the dev server's UI sends none). */
    HITL_CODEC_ALLOW_ANONYMOUS: z.stringbool().default(false),
    /** Signed decisions (src/signing): the signer's private JWK (`hitl keygen`), or a file holding it. */
    HITL_SIGNING_KEY: z.string().optional(),
    HITL_SIGNING_KEY_FILE: z.string().optional(),
    /** The `iss` and `aud` of the decision tokens this project signs and trusts. */
    HITL_TOKEN_ISSUER: exactName().default('hitl'),
    HITL_TOKEN_AUDIENCE: exactName().default('hitl-decisions'),
    /** Public keys (a JWKS) trusted for HITL_TOKEN_ISSUER; during a rotation, old and new. Default: the signing key's. */
    HITL_TRUSTED_JWKS: z.string().optional(),
    HITL_TRUSTED_JWKS_FILE: z.string().optional(),
    /** An OpenID Connect provider whose ID tokens may sign decisions: issuer URL, client id, its JWKS, groups claim. */
    HITL_OIDC_ISSUER: httpUrl().optional(),
    HITL_OIDC_AUDIENCE: exactName().optional(),
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
    OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl().optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl().optional(),
    OTEL_TRACES_EXPORTER: z.enum(['otlp', 'console', 'none']).optional(),
    OTEL_SDK_DISABLED: z.stringbool().default(false),
    /** @default 'hitl-worker', 'hitl-api' or 'hitl' (npm start), by process */
    OTEL_SERVICE_NAME: z.string().min(1).optional(),
    /** The worker's Prometheus endpoint (the SDK's metrics and ours, `hitl_*`), e.g. `0.0.0.0:9464`. @default off */
    HITL_WORKER_METRICS_ADDRESS: socketAddress().optional(),
    /** Base URL of the Temporal Web UI, for links from the API and the inbox, and the codec's CORS origin. */
    TEMPORAL_UI_URL: httpUrl().default('http://localhost:8233'),
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
  const misspelt = unknownHitlVariables(
    set.map(([name]) => name),
    SETTINGS,
  );
  if (misspelt.length) throw new Error(`Invalid environment:\n${misspelt.join('\n')}`);
  const parsed = EnvConfig.safeParse(Object.fromEntries(set));
  if (!parsed.success) throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const SETTINGS = Object.keys(EnvConfig.shape);

/** The model calls' streaming option for ActivityDeps: undefined when streaming is off; unset values default. */
export function modelStreaming(config: EnvConfig): Partial<TokenBatching> | undefined {
  if (!config.HITL_MODEL_STREAMING) return undefined;
  return {
    ...(config.HITL_STREAM_BATCH_INTERVAL_MS !== undefined && { batchIntervalMs: config.HITL_STREAM_BATCH_INTERVAL_MS }),
    ...(config.HITL_STREAM_MAX_BATCH_CHARS !== undefined && { maxBatchChars: config.HITL_STREAM_MAX_BATCH_CHARS }),
  };
}
