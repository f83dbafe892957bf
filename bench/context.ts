/** What every scenario shares: the dev server, a client, the scripted model, the bundles, child processes. */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import getPort from 'get-port';
import { Client, type Connection } from '@temporalio/client';
import { connectClient as connectTemporalClient } from '../src/connection/connect.js';
import { devServerTarget } from '../src/connection/temporal-target.js';
import type { DevServer } from '../src/dev/dev-server.js';
import type { ModelServer } from '../src/model-server/server.js';
import { BENCH_DIR, spawnChild, type BenchChild } from './ipc.js';
import type { WorkerProcessConfig } from './worker-process.js';

export interface BenchSettings {
  mode: 'quick' | 'full';
  latencySamples: number;
  warmupSamples: number;
  steps: number;
  stepRepetitions: number;
  densityRuns: number;
  decideConcurrency: number;
  /** Tuning experiments (worker option overrides) after the main measurements. */
  experiments: boolean;
  /** Only these experiments, by name (`--experiment NAME`, repeatable); all when empty. */
  onlyExperiments: string[];
}

/** What child processes need; known before the server is up, so they can start while it starts. */
export interface ChildEnv {
  address: string;
  namespace: string;
  model: ModelServer;
  agentBundlePath: string;
  floorBundlePath: string;
  /** The OpenAI-Agents-pattern peer's workflow bundle (bench/peer/openai-agents/). */
  openaiAgentsBundlePath?: string;
}

export interface BenchContext extends ChildEnv {
  settings: BenchSettings;
  server: DevServer;
  serverDbFile?: string;
  connection: Connection;
  client: Client;
  model: ModelServer;
  agentBundlePath: string;
  floorBundlePath: string;
  tmpDir: string;
  log(line: string): void;
}

export async function connectClient(server: Pick<DevServer, 'address' | 'namespace'>): Promise<{ connection: Connection; client: Client }> {
  const connection = await connectTemporalClient(devServerTarget(server.address, server.namespace), { waitMs: 30_000 });
  return { connection, client: new Client({ connection, namespace: server.namespace }) };
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export interface WorkerChild extends BenchChild {
  /** The agent workflow's task queue ('' when this worker runs no agent workflow). */
  taskQueue: string;
  floorTaskQueue?: string;
  openaiAgentsTaskQueue?: string;
}

export async function startWorkerChild(
  ctx: ChildEnv,
  options: {
    /** Agent workflow bundle; false for none. @default the run's bundle */
    agentBundlePath?: string | false;
    /** Floor workflow bundle: true for the run's floor bundle. */
    floor: boolean | string;
    /** Also run the OpenAI-Agents-pattern peer (the run's bundle of it). */
    openaiAgents?: boolean;
    record: boolean;
    overrides?: WorkerProcessConfig['overrides'];
    optimizeForSize?: boolean;
    /** createWorker's heapGrowthPercent; its default when absent. */
    heapGrowthPercent?: number;
    /** Poll this agent task queue (a replacement worker); a new one otherwise. */
    taskQueue?: string;
  },
): Promise<WorkerChild> {
  const agentBundle = options.agentBundlePath === false ? undefined : (options.agentBundlePath ?? ctx.agentBundlePath);
  const floorBundle = options.floor === true ? ctx.floorBundlePath : options.floor || undefined;
  const taskQueue = agentBundle ? (options.taskQueue ?? uniqueName('bench-agent')) : '';
  const floorTaskQueue = floorBundle ? uniqueName('bench-floor') : undefined;
  const openaiAgentsTaskQueue = options.openaiAgents && ctx.openaiAgentsBundlePath ? uniqueName('bench-openai-agents') : undefined;
  const config: WorkerProcessConfig = {
    address: ctx.address,
    namespace: ctx.namespace,
    ...(agentBundle && { agent: { taskQueue, bundlePath: agentBundle } }),
    modelBaseURL: ctx.model.baseURL,
    ...(floorBundle && floorTaskQueue && { floor: { taskQueue: floorTaskQueue, bundlePath: floorBundle } }),
    ...(openaiAgentsTaskQueue && { openaiAgents: { taskQueue: openaiAgentsTaskQueue, bundlePath: ctx.openaiAgentsBundlePath! } }),
    ...(options.overrides && { overrides: options.overrides }),
    ...(options.optimizeForSize && { optimizeForSize: true }),
    ...(options.heapGrowthPercent !== undefined && { heapGrowthPercent: options.heapGrowthPercent }),
    record: options.record,
    metricsPort: await getPort(),
  };
  const child = await spawnChild(
    path.join(BENCH_DIR, 'worker-process.ts'),
    { BENCH_WORKER: JSON.stringify(config) },
    { nodeArgs: ['--expose-gc', ...cpuProfileArgs(), ...activationTimesArgs()] },
  );
  return { ...child, taskQueue, floorTaskQueue, openaiAgentsTaskQueue };
}

/**
 * `BENCH_CPU_PROFILE_DIR=DIR npm run bench …`: every worker process writes a V8 CPU profile there when it stops
 * (open it in Chrome DevTools or speedscope). The profiler slows the worker; numbers from such a run are not results.
 * `BENCH_CPU_PROFILE_INTERVAL_US=50` samples every 50 µs instead of V8's 1,000, fine enough to see inside one
 * activation of a few milliseconds.
 */
function cpuProfileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  const interval = process.env.BENCH_CPU_PROFILE_INTERVAL_US;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`, ...(interval ? [`--cpu-prof-interval=${interval}`] : [])] : [];
}

/**
 * `BENCH_ACTIVATION_TIMES_FILE=FILE`: the worker process times each activation that holds an update, in its workflow
 * threads and on its main thread, into FILE (bench/activation-times.cjs). `npm run bench:decision -- --activation-times`
 * sets it and reports what it found.
 */
function activationTimesArgs(): string[] {
  return process.env.BENCH_ACTIVATION_TIMES_FILE ? ['--require', path.join(BENCH_DIR, 'activation-times.cjs')] : [];
}

export async function startPeerChild(ctx: ChildEnv, checkpointFile: string): Promise<BenchChild> {
  return spawnChild(
    path.join(BENCH_DIR, 'peer', 'langgraph-peer.ts'),
    { BENCH_PEER: JSON.stringify({ modelBaseURL: ctx.model.baseURL, checkpointFile }) },
    { nodeArgs: ['--expose-gc'] },
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    await sleep(everyMs);
  }
}
