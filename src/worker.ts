/**
 * The worker: the agent workflow plus its activities (model calls, tools, notifications) on one task queue.
 * `npm run worker` runs it against `TEMPORAL_ADDRESS`.
 */
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import type { DataConverter } from '@temporalio/common';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from './activities/index.js';
import { loadAgents } from './agents/registry.js';
import { dataConverterFromEnv } from './codec/data-converter.js';
import { modelStreaming, readEnvConfig, type EnvConfig } from './config.js';
import { connectWorker } from './connection/connect-worker.js';
import { resolveTemporalTarget } from './connection/temporal-target.js';
import { SigningConfigError } from './errors.js';
import { decisionTrustFromConfig } from './signing/signing-config.js';
import { McpConnections } from './mcp/mcp-connections.js';
import { startTracing, stopTracing, tracingWorkerOptions } from './telemetry/tracing.js';
import { installWorkerRuntime } from './telemetry/worker-runtime.js';
import { createToolImplementations } from './tools/implementations/index.js';
import { TolerantCodec } from './codec/tolerant-codec.js';
import { bundleWorkflows } from './workflow-bundle.js';
import { stopWhenNpmStops } from './dev/follow-npm.js';

export interface HitlWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** A prebuilt bundle (from bundleWorkflows; tests build one for the whole suite); otherwise bundled at start. */
  workflowBundlePath?: string;
  /** Encryption (see src/codec); must match the clients'. */
  dataConverter?: DataConverter;
  /** Runs kept in memory between workflow tasks. @default DEFAULT_MAX_CACHED_RUNS */
  maxCachedRuns?: number;
  /** Have V8 keep heaps small, at a cost in throughput (see preferSmallHeaps). @default false */
  optimizeForSize?: boolean;
  /** How far V8 lets a heap grow past what survived its last full collection (see limitHeapGrowth). @default DEFAULT_HEAP_GROWTH_PERCENT */
  heapGrowthPercent?: number;
  /** Extra Worker options (tuning, interceptors, versioning). */
  overrides?: Partial<WorkerOptions>;
}

/**
 * The SDK sizes its workflow cache from the V8 heap limit (thousands of runs on a large machine), and a cached
 * agent run costs about 0.9 MiB of RSS (each has its own modules, zod's among them; bench/RESULTS.md), so a worker
 * holding thousands of paused runs grows to gigabytes. A paused run needs no memory: when its decision comes, an evicted run is rebuilt
 * by replaying its history (a few dozen events for a run paused early), so a small cache keeps RSS flat at any
 * number of paused runs. bench/HEAP-GROWTH.md has a worker's RSS and throughput with two thousand paused runs at
 * 100 and 200. A worker with more runs between steps at once than it caches replays them at every step: with 100
 * decisions in flight, each decided run was rebuilt from history 2.3 times at 100 and 1.4 times at 200 (its
 * decision, its tool's result, its model reply). Raise it where decisions come in bursts.
 */
export const DEFAULT_MAX_CACHED_RUNS = 100;

/**
 * V8 sizes its heaps from the machine's memory and collects lazily. Measured before zod was shared across runs
 * (src/workflow-bundle.ts): with 10,000 runs passing through the bounded cache, the garbage of evicted runs took
 * the SDK's workflow thread to ~1.5 GiB of RSS. `--optimize-for-size` kept that worker at ~650 MiB, but decisions
 * drained at well under half the rate and a workflow task hit the SDK's 5 s isolate timeout, so it is opt-in
 * (HITL_WORKER_SMALL_HEAPS) for workers whose memory matters more than their throughput. It does not cap the heap, so it cannot crash a worker whose cached
 * runs hold long transcripts. It applies to the isolates created after it, the workflow thread among them.
 */
export function preferSmallHeaps(): void {
  v8.setFlagsFromString('--optimize-for-size');
}

/**
 * After each full collection V8 lets a heap grow to up to 4× what survived it before collecting again, and every
 * run a worker starts or replays builds its modules (zod included) anew, so a worker deciding thousands of paused
 * runs allocates fast and its workflow thread's heap settles at several times its live data (bench/HEAP-GROWTH.md,
 * `npm run bench:heap-growth`: RSS and throughput with V8's heuristic and at 30%). The limit is a growth factor, not
 * a cap, so a heap that must hold more still can. 0 leaves V8's heuristic.
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 30;

/**
 * V8's `--heap-growing-percent` (0, its default, is its own heuristic), for every isolate in the process, the
 * workflow threads among them whenever they were created: V8 reads it at each collection. One value per process:
 * the last worker created sets it.
 */
export function limitHeapGrowth(percent: number): void {
  v8.setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}

/**
 * A worker for the agent workflow. While tracing is on (src/telemetry/tracing.ts) it traces its activities and, when
 * it bundles the workflows itself, its workflows (a prebuilt bundle must be built with the tracing interceptors).
 */
export async function createWorker(options: HitlWorkerOptions): Promise<Worker> {
  if (options.optimizeForSize) preferSmallHeaps();
  limitHeapGrowth(options.heapGrowthPercent ?? DEFAULT_HEAP_GROWTH_PERCENT);
  const { interceptors: tracing, sinks } = tracingWorkerOptions();
  // Bundled here as the tests and the bench bundle, not by the SDK: given the bundle's payload converter by path, the
  // SDK would also require it in this process, where a TypeScript file loads only under tsx.
  const workflowBundle = options.workflowBundlePath
    ? { codePath: options.workflowBundlePath }
    : { code: (await bundleWorkflows({ workflowInterceptorModules: tracing?.workflowModules ?? [] })).code };
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle,
    // A bundle holds its workflow interceptors (bundleWorkflows); the SDK takes none from here for it.
    interceptors: { ...tracing, workflowModules: [] },
    ...(sinks && { sinks }),
    activities: createActivities(options.deps),
    dataConverter: workerDataConverter(options.dataConverter),
    maxCachedWorkflows: options.maxCachedRuns ?? DEFAULT_MAX_CACHED_RUNS,
    // Cancellation reaches a tool through its heartbeats; don't let them be batched for long.
    maxHeartbeatThrottleInterval: '5s',
    ...options.overrides,
  });
}

/**
 * What the worker decodes with: the clients' codecs, made tolerant (src/codec/tolerant-codec.ts). The workflows'
 * payload converter is in their bundle (bundleWorkflows). Payloads are encoded as the clients encode them.
 */
function workerDataConverter(converter: DataConverter | undefined): DataConverter {
  return {
    ...converter,
    ...(converter?.payloadCodecs && { payloadCodecs: converter.payloadCodecs.map((codec) => new TolerantCodec(codec)) }),
  };
}

/**
 * A worker configured from the environment: the agents in code and in HITL_AGENTS_FILE (checked first: a bad file
 * stops the worker before it polls), the demo tools over HITL_DATA_DIR, the model endpoint and webhooks, and
 * encryption when keys are set. `close` releases the tools' database and the MCP connections.
 */
export async function createWorkerFromEnv(
  config: EnvConfig,
  connection: NativeConnection,
  namespace: string,
  options: Pick<HitlWorkerOptions, 'workflowBundlePath'> = {},
): Promise<{ worker: Worker; close(): Promise<void> }> {
  const agents = loadAgents(config, process.env);
  const mcp = new McpConnections();
  const signedDecisions = signedDecisionsFromEnv(config);
  const tools = createToolImplementations({ dataDir: path.resolve(config.HITL_DATA_DIR) });
  const close = async () => {
    tools.close();
    await mcp.close();
  };
  const worker = await createWorker({
    connection,
    namespace,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...options,
    dataConverter: dataConverterFromEnv(config),
    ...(config.HITL_WORKER_MAX_CACHED_RUNS && { maxCachedRuns: config.HITL_WORKER_MAX_CACHED_RUNS }),
    optimizeForSize: config.HITL_WORKER_SMALL_HEAPS,
    ...(config.HITL_WORKER_HEAP_GROWTH_PERCENT !== undefined && { heapGrowthPercent: config.HITL_WORKER_HEAP_GROWTH_PERCENT }),
    deps: {
      agents,
      mcp,
      tools: tools.byName,
      model: {
        baseURL: config.OPENAI_BASE_URL,
        apiKey: config.OPENAI_API_KEY,
        defaultModel: config.OPENAI_MODEL,
        streaming: modelStreaming(config),
        ...(config.HITL_WORKER_SENT_MESSAGES_MIB && { sentMessagesBytes: config.HITL_WORKER_SENT_MESSAGES_MIB * 1024 * 1024 }),
      },
      webhooks: { urls: config.HITL_WEBHOOK_URLS, secret: config.HITL_WEBHOOK_SECRET },
      signedDecisions,
    },
  }).catch(async (err) => {
    await close();
    throw err;
  });
  return { worker, close };
}

/** Whom new runs trust to sign decisions; refuses to start when signatures are required but no key is trusted. */
function signedDecisionsFromEnv(config: EnvConfig): ActivityDeps['signedDecisions'] {
  const trust = decisionTrustFromConfig(config);
  if (config.HITL_REQUIRE_SIGNED_DECISIONS && !trust) {
    throw new SigningConfigError('HITL_REQUIRE_SIGNED_DECISIONS is on, but no key is trusted: set HITL_TRUSTED_JWKS or HITL_SIGNING_KEY.');
  }
  return trust || config.HITL_REQUIRE_SIGNED_DECISIONS
    ? { ...(trust && { trust }), requiredByDefault: config.HITL_REQUIRE_SIGNED_DECISIONS }
    : undefined;
}

/**
 * `npm run worker`: the runtime (metrics endpoint), tracing, then the connection with a bounded wait: a worker that
 * cannot reach Temporal in HITL_CONNECT_TIMEOUT_MS, or is refused by it, exits non-zero saying which setting to fix.
 */
export async function runWorkerFromEnv(config = readEnvConfig()): Promise<void> {
  installWorkerRuntime(config);
  await startTracing(config, 'hitl-worker');
  const target = resolveTemporalTarget(config);
  const connection = await connectWorker(target, {
    waitMs: config.HITL_CONNECT_TIMEOUT_MS,
    onRetry: (err) => console.warn(`${err.message} Trying again…`),
  });
  try {
    const { worker, close } = await createWorkerFromEnv(config, connection, target.namespace);
    const metrics = config.HITL_WORKER_METRICS_ADDRESS ? `; metrics on http://${config.HITL_WORKER_METRICS_ADDRESS}/metrics` : '';
    console.log(`worker polling ${config.TEMPORAL_TASK_QUEUE} on ${target.address} (${target.namespace})${metrics}`);
    // Worker.run returns after SIGINT/SIGTERM once in-flight tasks have drained.
    await worker.run().finally(close);
  } finally {
    await connection.close();
    await stopTracing();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  stopWhenNpmStops();
  runWorkerFromEnv().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
