/**
 * Density: `runs` agent runs paused on their approval at once on one worker process (its own child, so its RSS
 * is its own), then all decided; the drain rate and how many completed. Should the worker process die (a paused
 * run lives in the server, not in the worker), a replacement takes over the same task queue and the restart is
 * reported: completion is the runs that completed, however many workers it took.
 */
import { existsSync, statSync } from 'node:fs';
import { WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import pLimit from 'p-limit';
import type { AgentWorkflowInput } from '../../src/schemas/agent-workflow-input.js';
import type { DecideInput } from '../../src/schemas/decision.js';
import type { AgentResult } from '../../src/schemas/run-state.js';
import { decideUpdate } from '../../src/contract/messages.js';
import { BENCH_AGENT, GATED_CALL_ID, PROMPTS } from '../bench-agent.js';
import { sleep, startWorkerChild, uniqueName, waitUntil, type BenchContext, type WorkerChild } from '../context.js';
import { cpuMsOf, rssOf } from '../ipc.js';
import type { BenchResults } from '../schema.js';
import { round } from '../stats.js';
import type { WorkerProcessConfig } from '../worker-process.js';

/** The worker process's workflow tasks so far: run found in its cache, or rebuilt from history first. */
interface CacheTasks {
  hits: number;
  misses: number;
}

interface Memory {
  rss: number;
  heapUsed: number;
}

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const approve: DecideInput = { decisions: [{ id: GATED_CALL_ID, type: 'approve' }] };

/**
 * A call sent again, up to 10 times, after an overload answer from the server: "context deadline exceeded" when
 * the worker is slow to take an update, and, seen at 10,000 runs, "Namespace not found" on starts and a stream
 * reset ("RST_STREAM with error code: CANCEL") on 2 decides. The calls are idempotent, as a careful client makes
 * them: a decide carries an update id, a start a workflow id.
 */
async function retryWhenOverloaded(call: () => Promise<void>, onRetry: () => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const message = String((err as Error).message ?? err);
      if (attempt >= 10 || !/deadline|unavailable|timed? ?out|exhausted|namespace not found|RST_STREAM/i.test(message)) throw err;
      onRetry();
      await sleep(1000);
    }
  }
}

/** The dev server's SQLite file with its write-ahead log, when it keeps one. */
function sqliteFileBytes(file: string | undefined): (() => Promise<number>) | undefined {
  if (!file) return undefined;
  return async () => ['', '-wal', '-shm'].reduce((n, suffix) => n + (existsSync(file + suffix) ? statSync(file + suffix).size : 0), 0);
}

function approveRun(handle: WorkflowHandle, onRetry: () => void): Promise<void> {
  return retryWhenOverloaded(async () => {
    try {
      await handle.executeUpdate(decideUpdate, { args: [approve], updateId: `bench-decide-${handle.workflowId}` });
    } catch (err) {
      // An earlier attempt got through after all.
      if (!/already completed/i.test(String((err as Error).message ?? err))) throw err;
    }
  }, onRetry);
}

export async function measureDensity(
  ctx: BenchContext,
  options: {
    runs: number;
    concurrency: number;
    overrides?: WorkerProcessConfig['overrides'];
    optimizeForSize?: boolean;
    /** createWorker's heapGrowthPercent for the worker this scenario starts; its default when absent. */
    heapGrowthPercent?: number;
    label?: string;
    worker?: WorkerChild;
    /**
     * CPU milliseconds the server has used so far. @default the dev server process's. A cluster on PostgreSQL
     * counts its database's processes too (bench/cluster-density.ts).
     */
    serverCpuMs?: () => number;
    /** Bytes the server stores, read once all runs are paused. @default the dev server's SQLite file, when it has one. */
    storageBytes?: () => Promise<number>;
  },
): Promise<BenchResults['density']> {
  const { runs, concurrency } = options;
  const { client } = ctx;
  const log = (line: string) => ctx.log(`  ${options.label ? `[${options.label}] ` : ''}${line}`);
  const workerOptions = {
    floor: false,
    record: false,
    overrides: options.overrides,
    optimizeForSize: options.optimizeForSize,
    heapGrowthPercent: options.heapGrowthPercent,
  };
  let worker = options.worker ?? (await startWorkerChild(ctx, workerOptions));
  const taskQueue = worker.taskQueue;
  const serverPid = ctx.server.pid!;
  const serverCpuMs = options.serverCpuMs ?? (() => cpuMsOf(serverPid));

  // Replace the worker process if it dies; CPU of dead processes is carried over.
  let stopping = false;
  let restarts = 0;
  let deadCpu = 0;
  const watch = (w: WorkerChild) => {
    let lastCpu = 0;
    const sampler = setInterval(() => {
      try {
        lastCpu = cpuMsOf(w.pid);
        peakRss = Math.max(peakRss, rssOf(w.pid));
        peakServerRss = Math.max(peakServerRss, rssOf(serverPid));
      } catch {
        // Exited between samples.
      }
    }, 1000);
    void w.exited.then(async ({ code, signal }) => {
      clearInterval(sampler);
      if (stopping) return;
      restarts++;
      deadCpu += lastCpu;
      log(`the worker process exited (code ${code}, signal ${signal}); starting a replacement on the same task queue`);
      worker = await startWorkerChild(ctx, { ...workerOptions, taskQueue });
      watch(worker);
    });
  };
  let peakRss = 0;
  let peakServerRss = 0;
  watch(worker);
  const workerCpu = () => deadCpu + cpuMsOf(worker.pid);

  try {
    const tag = uniqueName('density');
    const input: AgentWorkflowInput = { agent: BENCH_AGENT, prompt: PROMPTS.gated };

    // Warm up (bundle loaded, code paths compiled) before the baseline: a few runs start to finish.
    await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const handle = await client.workflow.start('agentWorkflow', { taskQueue, workflowId: `${tag}-warmup-${i}`, args: [input] });
        await waitUntil(
          async () => (await client.workflow.count(`WorkflowId = '${handle.workflowId}' AND HitlStatus = 'AwaitingApproval'`)).count === 1,
          60_000,
          'warm-up pause',
          200,
        );
        await handle.executeUpdate(decideUpdate, { args: [approve] });
        await handle.result();
      }),
    );
    await sleep(1000);
    const baseline = await worker.request<Memory>('memory');
    const serverBaseline = rssOf(serverPid);
    [peakRss, peakServerRss] = [baseline.rss, serverBaseline];

    const startLimit = pLimit(concurrency);
    const cpu0 = { worker: workerCpu(), server: serverCpuMs() };
    const tasks0 = await worker.request<CacheTasks>('cacheTasks');
    const t0 = Date.now();
    const ids = Array.from({ length: runs }, (_, i) => `${tag}-${i}`);
    let started = 0;
    let startRetries = 0;
    const startFailures: string[] = [];
    // Every start settles before we go on: a failure must not close the connection under calls still in flight.
    await Promise.all(
      ids.map((workflowId) =>
        startLimit(async () => {
          try {
            await retryWhenOverloaded(
              async () => {
                try {
                  await client.workflow.start('agentWorkflow', { taskQueue, workflowId, args: [input] });
                } catch (err) {
                  if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
                }
              },
              () => startRetries++,
            );
          } catch (err) {
            startFailures.push(`${workflowId}: start failed: ${(err as Error).message}`);
            return;
          }
          if (++started % 2000 === 0) log(`${started}/${runs} started`);
        }),
      ),
    );
    const startSeconds = (Date.now() - t0) / 1000;
    if (startRetries || startFailures.length)
      log(`${startRetries} start retries after an overload answer; ${startFailures.length} starts failed`);
    if (startFailures.length) log(`e.g. ${startFailures[0]}`);

    // Wait while the count moves; give up after 3 minutes without progress (and say which runs are stuck).
    const pausedQuery = `TaskQueue = '${taskQueue}' AND HitlStatus = 'AwaitingApproval'`;
    let paused = 0;
    let progressAt = Date.now();
    let lastLog = Date.now();
    for (;;) {
      const now = (await client.workflow.count(pausedQuery)).count;
      if (now > paused) progressAt = Date.now();
      paused = now;
      if (paused >= started) break;
      if (Date.now() - progressAt > 180_000) {
        log(`only ${paused}/${runs} paused, no progress for 3 minutes; e.g.:`);
        for await (const wf of client.workflow.list({ query: `TaskQueue = '${taskQueue}' AND HitlStatus != 'AwaitingApproval'` })) {
          if (wf.workflowId.includes('warmup')) continue;
          const d = await client.workflow.getHandle(wf.workflowId).describe();
          log(
            `  ${wf.workflowId} ${wf.status.name} ${JSON.stringify((d.raw as { pendingWorkflowTask?: unknown }).pendingWorkflowTask ?? null)}`,
          );
          break;
        }
        break;
      }
      if (Date.now() - lastLog > 30_000) {
        lastLog = Date.now();
        log(`${paused}/${runs} paused (worker RSS ${mib(peakRss)} MiB so far)`);
      }
      await sleep(1000);
    }
    const pauseSeconds = (Date.now() - t0) / 1000;
    const cpu1 = { worker: workerCpu(), server: serverCpuMs() };
    const tasks1 = await worker.request<CacheTasks>('cacheTasks');
    log(`${paused} runs paused in ${round(pauseSeconds, 1)}s (started in ${round(startSeconds, 1)}s)`);
    await sleep(2000);
    const pausedMemory = await worker.request<Memory>('memory');
    const serverPaused = rssOf(serverPid);
    const cache = await worker.request<{ cached: number; max: number; heapLimit: number; heapGrowthPercent: number }>('cache');
    log(
      `worker RSS ${mib(baseline.rss)} → ${mib(pausedMemory.rss)} MiB (peak ${mib(peakRss)}), ${cache.cached} cached of max ${cache.max}; ` +
        `server RSS ${mib(serverBaseline)} → ${mib(serverPaused)} MiB`,
    );
    const dbFileBytes = await (options.storageBytes ?? sqliteFileBytes(ctx.serverDbFile))?.();

    // Decide every run, `concurrency` updates in flight; each run's result awaited as soon as it is decided.
    const decideLimit = pLimit(concurrency);
    const resultLimit = pLimit(Math.max(concurrency, 200));
    let completed = 0;
    let retries = 0;
    const failures: string[] = [];
    let lastDecided = 0;
    let lastCompleted = 0;
    const d0 = Date.now();
    await Promise.all(
      ids.map((workflowId) =>
        decideLimit(async () => {
          const handle = client.workflow.getHandle(workflowId);
          try {
            await approveRun(handle, () => retries++);
          } catch (err) {
            failures.push(`${workflowId}: decide failed: ${(err as Error).message}`);
            return;
          }
          lastDecided = Date.now();
          void resultLimit(async () => {
            const result = (await handle.result().catch((err: unknown) => ({ status: String(err) }))) as Pick<AgentResult, 'status'>;
            if (result.status === 'Completed') completed++;
            else failures.push(`${workflowId}: ${result.status}`);
            lastCompleted = Date.now();
            if (completed % 2000 === 0) log(`${completed}/${runs} completed`);
          });
        }),
      ),
    );
    // Results arrive as runs complete; give up only after 3 minutes without one.
    let settled = -1;
    let settledAt = Date.now();
    while (resultLimit.activeCount + resultLimit.pendingCount > 0) {
      const now = completed + failures.length;
      if (now !== settled) [settled, settledAt] = [now, Date.now()];
      if (Date.now() - settledAt > 180_000) {
        log(`no run completed for 3 minutes; ${completed + failures.length}/${runs} settled`);
        break;
      }
      await sleep(200);
    }
    const cpu2 = { worker: workerCpu(), server: serverCpuMs() };
    const tasks2 = await worker.request<CacheTasks>('cacheTasks');
    const decideSeconds = Math.max(0.001, (lastDecided - d0) / 1000);
    const drainSeconds = Math.max(0.001, (lastCompleted - d0) / 1000);
    log(
      `${completed}/${runs} completed; drained in ${round(drainSeconds, 1)}s; ${retries} decide retries after a timeout; ${restarts} worker restarts`,
    );
    if (failures.length) log(`not completed: ${failures.slice(0, 5).join('; ')}${failures.length > 5 ? ` (+${failures.length - 5})` : ''}`);

    return {
      runs,
      paused,
      startSeconds: round(startSeconds, 2),
      pauseSeconds: round(pauseSeconds, 2),
      worker: {
        baselineRssBytes: baseline.rss,
        pausedRssBytes: pausedMemory.rss,
        peakRssBytes: peakRss,
        perPausedRunBytes: Math.round((pausedMemory.rss - baseline.rss) / runs),
        perCachedRunBytes: Math.round((pausedMemory.rss - baseline.rss) / Math.max(1, cache.cached)),
        cachedWorkflows: cache.cached,
        maxCachedWorkflows: cache.max,
        heapLimitBytes: cache.heapLimit,
        heapGrowthPercent: cache.heapGrowthPercent,
        restarts,
      },
      cpu: {
        workerMsPerPause: round((cpu1.worker - cpu0.worker) / runs, 2),
        serverMsPerPause: round((cpu1.server - cpu0.server) / runs, 2),
        workerMsPerDecision: round((cpu2.worker - cpu1.worker) / runs, 2),
        serverMsPerDecision: round((cpu2.server - cpu1.server) / runs, 2),
      },
      devServer: {
        baselineRssBytes: serverBaseline,
        pausedRssBytes: serverPaused,
        peakRssBytes: peakServerRss,
        ...(dbFileBytes !== undefined && { dbFileBytes }),
      },
      drain: {
        concurrency,
        decisionsPerSecond: round(runs / decideSeconds, 1),
        completionsPerSecond: round(completed / drainSeconds, 1),
        seconds: round(drainSeconds, 2),
        decideRetries: retries,
      },
      // A replacement worker process counts from zero: no figure then.
      ...(restarts === 0 && {
        rebuilds: {
          perPausedRun: round((tasks1.misses - tasks0.misses) / runs, 2),
          perDecidedRun: round((tasks2.misses - tasks1.misses) / runs, 2),
          drainTasksPerRun: round((tasks2.misses + tasks2.hits - tasks1.misses - tasks1.hits) / runs, 2),
        },
      }),
      completed,
      completion: completed / runs,
    };
  } finally {
    stopping = true;
    await worker.stop();
  }
}
