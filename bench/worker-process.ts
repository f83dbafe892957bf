/**
 * A worker in its own process, so its RSS is its own: the agent workflow (through `createWorker`, with the bench
 * agent and instant tools) and, optionally, the floor workflow on its own task queue. Configured by the
 * BENCH_WORKER environment variable (JSON, see WorkerProcessConfig); driven by the runner over IPC.
 */
import { existsSync } from 'node:fs';
import v8 from 'node:v8';
import { Context } from '@temporalio/activity';
import { DefaultLogger, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { connectWorker } from '../src/connection/connect-worker.js';
import { devServerTarget } from '../src/connection/temporal-target.js';
import { createWorker, DEFAULT_HEAP_GROWTH_PERCENT, preferSmallHeaps } from '../src/worker.js';
import { benchAgent, benchTools, BENCH_AGENT } from './bench-agent.js';
import { floorActivities } from './floor/activities.js';
import { openaiAgentsPeerActivities } from './peer/openai-agents/activities.js';
import { exitWithParent, markNow, rssOf, serveParent, type ActivityMark } from './ipc.js';

export interface WorkerProcessConfig {
  address: string;
  namespace: string;
  /** The agent workflow (through createWorker). */
  agent?: { taskQueue: string; bundlePath: string };
  modelBaseURL: string;
  /** A floor workflow bundle (bench/floor/*) with the floor activities. */
  floor?: { taskQueue: string; bundlePath: string };
  /** The OpenAI-Agents-pattern peer's bundle (bench/peer/openai-agents/*) with its activities. */
  openaiAgents?: { taskQueue: string; bundlePath: string };
  /** Worker option overrides (tuning experiments), passed to createWorker's `overrides`. */
  overrides?: Partial<
    Pick<
      WorkerOptions,
      | 'maxCachedWorkflows'
      | 'maxConcurrentWorkflowTaskExecutions'
      | 'maxConcurrentActivityTaskExecutions'
      | 'maxConcurrentLocalActivityExecutions'
      | 'maxEagerActivityReservationsPerWorkflowTask'
      | 'workflowThreadPoolSize'
      | 'reuseV8Context'
    >
  >;
  /** Record activity start/end timestamps per workflow id (off for density runs). */
  record: boolean;
  /** Where Core serves its metrics (Prometheus), read for the workflow cache's hits and misses. */
  metricsPort: number;
  /** createWorker's optimizeForSize (V8's --optimize-for-size), for the whole process. */
  optimizeForSize?: boolean;
  /** createWorker's heapGrowthPercent; its default when absent. */
  heapGrowthPercent?: number;
}

exitWithParent();
const config = JSON.parse(process.env.BENCH_WORKER ?? '') as WorkerProcessConfig;
// As createWorker does, before any workflow thread exists: the floor's workers get the same heaps as ours.
if (config.optimizeForSize) preferSmallHeaps();
// Core's own warnings (e.g. "workflow task duration exceeded 5 seconds" under load) would drown the runner's output.
Runtime.install({
  logger: new DefaultLogger('ERROR'),
  telemetryOptions: {
    logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} },
    metrics: { prometheus: { bindAddress: `127.0.0.1:${config.metricsPort}` } },
  },
});

const marks = new Map<string, ActivityMark[]>();
const mark = (workflowId: string | undefined, activity: string, phase: ActivityMark['phase']) => {
  if (!workflowId) return;
  let list = marks.get(workflowId);
  if (!list) marks.set(workflowId, (list = []));
  list.push({ activity, phase, at: markNow() });
};
/** Timestamps inside the worker, around the activity function itself; the same for both workflows. */
const recordActivities: ActivityInterceptorsFactory = (ctx: Context) => ({
  inbound: {
    async execute(input, next) {
      const workflowId = ctx.info.workflowExecution?.workflowId;
      mark(workflowId, ctx.info.activityType, 'start');
      try {
        return await next(input);
      } finally {
        mark(workflowId, ctx.info.activityType, 'end');
      }
    },
  },
});
const interceptors = config.record ? { interceptors: { activity: [recordActivities] } } : {};

// The runner starts this process while the server starts and the bundles build: wait for both.
const connect = () => connectWorker(devServerTarget(config.address, config.namespace), { waitMs: 120_000 });
async function bundleReady(file: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`no workflow bundle at ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
await Promise.all([config.agent, config.floor, config.openaiAgents].flatMap((c) => (c ? [bundleReady(c.bundlePath)] : [])));
const connection = await connect();
const workers: Worker[] = [];
if (config.agent) {
  workers.push(
    await createWorker({
      connection,
      namespace: config.namespace,
      taskQueue: config.agent.taskQueue,
      workflowBundlePath: config.agent.bundlePath,
      ...(config.heapGrowthPercent !== undefined && { heapGrowthPercent: config.heapGrowthPercent }),
      deps: {
        agents: { [BENCH_AGENT]: benchAgent },
        tools: benchTools(),
        model: { baseURL: config.modelBaseURL, apiKey: 'sk-bench', defaultModel: 'scripted-model' },
        webhooks: { urls: [] },
      },
      overrides: { ...config.overrides, ...interceptors },
    }),
  );
}
/** A bare worker (no createWorker) for the floor and the OpenAI-Agents-pattern peer, with the same overrides. */
const bareWorker = (c: { taskQueue: string; bundlePath: string }, activities: object) =>
  Worker.create({
    connection,
    namespace: config.namespace,
    taskQueue: c.taskQueue,
    workflowBundle: { codePath: c.bundlePath },
    activities,
    ...config.overrides,
    ...interceptors,
  });
if (config.floor) workers.push(await bareWorker(config.floor, floorActivities));
if (config.openaiAgents) workers.push(await bareWorker(config.openaiAgents, openaiAgentsPeerActivities(config.modelBaseURL)));
const running = Promise.all(workers.map((w) => w.run()));
running.catch((err) => {
  console.error('[bench worker]', err);
  process.exit(1);
});

serveParent(
  {
    /** Activity marks of these workflows (and forget them). */
    marks: (req) => {
      const ids = req.workflowIds as string[];
      const out: Record<string, ActivityMark[]> = {};
      for (const id of ids) {
        out[id] = marks.get(id) ?? [];
        marks.delete(id);
      }
      return out;
    },
    clearMarks: () => {
      marks.clear();
      return null;
    },
    /** RSS as the process sees it, after a full GC when exposed. */
    memory: () => {
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      return { rss: rssOf(process.pid), heapUsed: usage.heapUsed, external: usage.external, arrayBuffers: usage.arrayBuffers };
    },
    /** The (first) worker's cache: how many runs it holds in memory, and how many it may. */
    cache: () => ({
      cached: workers[0]!.getStatus().numCachedWorkflows,
      max: workers[0]!.options.maxCachedWorkflows,
      heapLimit: v8.getHeapStatistics().heap_size_limit,
      heapGrowthPercent: config.heapGrowthPercent ?? DEFAULT_HEAP_GROWTH_PERCENT,
    }),
    /**
     * Workflow tasks of this process so far that found their run in the cache, and those that rebuilt it from its
     * history first (a new run's first task among them): Core's sticky_cache_hit and sticky_cache_miss counters.
     */
    cacheTasks: async () => {
      const text = await (await fetch(`http://127.0.0.1:${config.metricsPort}/metrics`)).text();
      const total = (name: string) =>
        text
          .split('\n')
          .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
          .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
      return { hits: total('temporal_sticky_cache_hit'), misses: total('temporal_sticky_cache_miss') };
    },
  },
  async () => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    await running.catch(() => {});
    await connection.close();
  },
);
