/**
 * Profiling: what the misses come from, and what our changes bought. Worker option overrides go through
 * createWorker's `overrides`; the comparisons that need other workflow code (every tool a regular activity, as
 * before `local: true`; the listings in the decision's own workflow task, as before it started the tool first) run
 * on bench-only bundles of the real agent workflow with one module swapped.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import getPort from 'get-port';
import pLimit from 'p-limit';
import { startDevServer } from '../src/dev/dev-server.js';
import { TEMPORAL_DEFAULT_DYNAMIC_CONFIG, type DynamicConfigValue } from '../src/dev/server-dynamic-config.js';
import { bundleWorkflows, WORKFLOWS_PATH, ZOD_PER_WORKER_ALIASES } from '../src/workflow-bundle.js';
import { BENCH_AGENT, PROMPTS } from './bench-agent.js';
import { connectClient, sleep, startWorkerChild, uniqueName, type BenchContext, type WorkerChild } from './context.js';
import { floorReadyQuery } from './floor/workflows.js';
import { BENCH_DIR } from './ipc.js';
import type { Experiment } from './schema.js';
import { measureHistory } from './scenarios/history.js';
import { LATENCY_BATCH, latencyCacheSize, measureDecisionLatency, type FloorWorkflow } from './scenarios/latency.js';
import { measureStepOverhead } from './scenarios/steps.js';
import { ratio, round } from './stats.js';

export const quietLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => console.error(m) };

interface ReplacementResource {
  request: string;
  context: string;
  contextInfo: { issuer: string };
}
interface WebpackCompiler {
  webpack: {
    NormalModuleReplacementPlugin: new (re: RegExp, fn: (r: ReplacementResource) => void) => { apply(compiler: WebpackCompiler): void };
  };
}

/** The bench-only bundles: the real agent workflow with one module of src/workflows/ swapped for a shim in bench/experiments/. */
const SWAPS = {
  regularTools: { module: 'activity-options', shim: 'regular-tool-activities.ts' },
  listingsInDecisionTask: { module: 'patches', shim: 'listings-in-decision-task.ts' },
  decisionTaskSet10: { module: 'patches', shim: 'decision-task-set-10.ts' },
};

async function bundleWithSwap(file: string, swap: keyof typeof SWAPS): Promise<string> {
  const workflowsDir = path.dirname(WORKFLOWS_PATH);
  const { module, shim: shimName } = SWAPS[swap];
  const shim = path.join(BENCH_DIR, 'experiments', shimName);
  const request = new RegExp(`^\\./${module}\\.js$`);
  const { code } = await bundleWorkflows({
    logger: quietLogger,
    webpackConfigHook: (config) => {
      const plugin = {
        apply(compiler: WebpackCompiler) {
          new compiler.webpack.NormalModuleReplacementPlugin(request, (resource) => {
            if (resource.context === workflowsDir && resource.contextInfo.issuer !== shim) resource.request = shim;
          }).apply(compiler);
        },
      };
      return { ...config, plugins: [...(config.plugins ?? []), plugin as never] };
    },
  });
  if (!code.includes(shimName)) throw new Error(`the ${module} swap did not take`);
  writeFileSync(file, code);
  return file;
}

/**
 * Runs `measure` on a fresh worker process (with the floor) serving a bench-only bundle with `swap` in place, or
 * the agent workflow as shipped without one. As in the main series, every sampled run stays cached until decided.
 */
async function onFreshWorker<T>(
  ctx: BenchContext,
  swap: keyof typeof SWAPS | undefined,
  measure: (worker: WorkerChild) => Promise<T>,
): Promise<T> {
  const bundle = swap ? await bundleWithSwap(path.join(ctx.tmpDir, `agent-${SWAPS[swap].module}-swapped.js`), swap) : undefined;
  const worker = await startWorkerChild(ctx, {
    ...(bundle && { agentBundlePath: bundle }),
    floor: true,
    record: true,
    overrides: { maxCachedWorkflows: latencyCacheSize(ctx.settings.latencySamples, ctx.settings.warmupSamples) },
  });
  try {
    return await measure(worker);
  } finally {
    await worker.stop();
  }
}

/**
 * RSS per cached paused run for a workflow bundle: `runs` runs started and paused on one fresh worker process
 * whose cache holds them all.
 */
async function footprint(ctx: BenchContext, kind: 'floor' | 'floor+zod' | 'agent', bundlePath: string, runs: number) {
  const overrides = { maxCachedWorkflows: runs + 10 };
  const worker = await startWorkerChild(
    ctx,
    kind === 'agent'
      ? { agentBundlePath: bundlePath, floor: false, record: false, overrides }
      : { agentBundlePath: false, floor: bundlePath, record: false, overrides },
  );
  try {
    const { client } = ctx;
    const limit = pLimit(50);
    const start = (id: string) =>
      kind === 'agent'
        ? client.workflow.start('agentWorkflow', {
            taskQueue: worker.taskQueue,
            workflowId: id,
            args: [{ agent: BENCH_AGENT, prompt: PROMPTS.gated }],
          })
        : client.workflow.start('floorDecisionWorkflow', { taskQueue: worker.floorTaskQueue!, workflowId: id, args: [] });
    const paused = async (id: string) => {
      const handle = client.workflow.getHandle(id);
      if (kind !== 'agent') return handle.query(floorReadyQuery);
      for (;;) {
        const pending = await handle.query<unknown[]>('pendingApprovals').catch(() => []);
        if (pending.length === 1) return true;
        await sleep(200);
      }
    };
    const tag = uniqueName(`footprint-${kind.replace('+', '-')}`);
    await Promise.all(Array.from({ length: 3 }, (_, i) => start(`${tag}-warmup-${i}`).then((h) => paused(h.workflowId))));
    await sleep(500);
    const before = (await worker.request<{ rss: number }>('memory')).rss;
    const t0 = Date.now();
    await Promise.all(Array.from({ length: runs }, (_, i) => limit(() => start(`${tag}-${i}`).then((h) => paused(h.workflowId)))));
    const seconds = (Date.now() - t0) / 1000;
    await sleep(1000);
    const after = (await worker.request<{ rss: number }>('memory')).rss;
    const cache = await worker.request<{ cached: number; max: number; heapLimit: number }>('cache');
    return { kibPerRun: Math.round((after - before) / runs / 1024), pausedPerSecond: round(runs / seconds, 1), cached: cache.cached };
  } finally {
    await worker.stop();
  }
}

/** Runs one experiment; a failure is recorded, and the benchmark goes on. */
async function attempt(
  ctx: BenchContext,
  experiments: Experiment[],
  name: string,
  description: string,
  run: () => Promise<Experiment>,
): Promise<void> {
  const only = ctx.settings.onlyExperiments;
  if (only.length && !only.includes(name)) return;
  try {
    experiments.push(await run());
  } catch (err) {
    ctx.log(`  experiment ${name} failed: ${(err as Error).message}`);
    experiments.push({ name, description, overrides: {}, metrics: {}, error: (err as Error).message.split('\n')[0]! });
  }
}

type WebpackConfig = Parameters<NonNullable<NonNullable<Parameters<typeof bundleWorkflows>[0]>['webpackConfigHook']>>[0];

/** The agent bundle without one zod per worker (src/workflow-bundle.ts): every run instantiates zod's ES build. */
function withZodPerRun(config: WebpackConfig): WebpackConfig {
  const alias = Object.entries(config.resolve!.alias as Record<string, string | false>).filter(([key]) => !(key in ZOD_PER_WORKER_ALIASES));
  return { ...config, resolve: { ...config.resolve, alias: Object.fromEntries(alias) } };
}

export async function runExperiments(ctx: BenchContext): Promise<Experiment[]> {
  const experiments: Experiment[] = [];
  const { log } = ctx;

  // 1. Where the memory per paused run goes: the floor, the floor plus two zod schemas, the agent workflow as shipped
  //    (one zod per worker, src/schemas/zod-per-worker.ts), and the agent workflow with zod's ES build instantiated
  //    by every run, as it was before: what one zod per worker saves.
  const runs = ctx.settings.mode === 'quick' ? 100 : 300;
  const footprintDescription = `${runs} runs paused at once on a fresh worker process per bundle (default worker options, all cached): RSS growth per run, and runs paused per second`;
  await attempt(ctx, experiments, 'memory-per-cached-run', footprintDescription, async () => {
    log('experiment: memory per cached run by workflow bundle');
    const zodFloorBundle = path.join(ctx.tmpDir, 'zod-floor-workflows.js');
    writeFileSync(
      zodFloorBundle,
      (await bundleWorkflowCode({ workflowsPath: path.join(BENCH_DIR, 'floor', 'zod-floor-workflows.ts'), logger: quietLogger })).code,
    );
    const zodPerRunBundle = path.join(ctx.tmpDir, 'agent-zod-per-run-workflows.js');
    writeFileSync(zodPerRunBundle, (await bundleWorkflows({ webpackConfigHook: withZodPerRun, logger: quietLogger })).code);
    const floor = await footprint(ctx, 'floor', ctx.floorBundlePath, runs);
    const zodFloor = await footprint(ctx, 'floor+zod', zodFloorBundle, runs);
    const agent = await footprint(ctx, 'agent', ctx.agentBundlePath, runs);
    const agentZodPerRun = await footprint(ctx, 'agent', zodPerRunBundle, runs);
    log(
      `  KiB per cached run: floor ${floor.kibPerRun}, floor + 2 zod schemas ${zodFloor.kibPerRun}, agent ${agent.kibPerRun}, agent with zod per run ${agentZodPerRun.kibPerRun}`,
    );
    return {
      name: 'memory-per-cached-run',
      description: footprintDescription,
      overrides: {},
      metrics: {
        floorKiBPerRun: floor.kibPerRun,
        floorWithZodKiBPerRun: zodFloor.kibPerRun,
        agentKiBPerRun: agent.kibPerRun,
        agentZodPerRunKiBPerRun: agentZodPerRun.kibPerRun,
        floorPausedPerSecond: floor.pausedPerSecond,
        floorWithZodPausedPerSecond: zodFloor.pausedPerSecond,
        agentPausedPerSecond: agent.pausedPerSecond,
        agentZodPerRunPausedPerSecond: agentZodPerRun.pausedPerSecond,
      },
    };
  });

  // 2. Every tool a regular activity (before `local: true`): what local tools buy per automatic step.
  // Half a batch: an experiment compares itself with the main series, and takes a shorter window to do it.
  const samples = Math.max(20, Math.round(Math.min(ctx.settings.latencySamples, LATENCY_BATCH) / 2));
  const regularDescription = `the agent workflow with every tool call a regular activity, read_data included (src/workflows/activity-options.ts swapped in a bench-only bundle), ${samples} decision samples and ${ctx.settings.stepRepetitions} step run(s) against the floor in the same window`;
  await attempt(ctx, experiments, 'tools-as-regular-activities', regularDescription, async () => {
    log('experiment: every tool a regular activity (bench-only bundle of the agent workflow)');
    return onFreshWorker(ctx, 'regularTools', async (worker) => {
      const latency = await measureDecisionLatency(ctx, worker, undefined, { series: ['oursUpdate', 'floorUpdate'], samples });
      const steps = await measureStepOverhead(ctx, worker);
      const history = await measureHistory(ctx, worker, {
        gatedUpdateRunId: latency.gatedUpdateRunId,
        stepsRunId: steps.stepsRunId,
        steps: ctx.settings.steps,
      });
      const ours = latency.series.oursUpdate!.decisionToNextCall!;
      const base = latency.series.floorUpdate!.decisionToNextCall!;
      log(
        `  decision ${ours.p50} vs floor ${base.p50} ms; step ${steps.ours.perStepMs.p50} vs ${steps.floor.perStepMs.p50} ms; ${history.perAutomaticStep.events} events per automatic step`,
      );
      return {
        name: 'tools-as-regular-activities',
        description: regularDescription,
        overrides: {},
        metrics: {
          decisionP50Ms: ours.p50,
          decisionP99Ms: ours.p99,
          floorDecisionP50Ms: base.p50,
          floorDecisionP99Ms: base.p99,
          decisionRatioP50: ratio(ours.p50, base.p50),
          sentToToolStartP50Ms: latency.series.oursUpdate!.sentToToolStart.p50,
          sentToToolStartP99Ms: latency.series.oursUpdate!.sentToToolStart.p99,
          stepP50Ms: steps.ours.perStepMs.p50,
          floorStepP50Ms: steps.floor.perStepMs.p50,
          stepRatioP50: ratio(steps.ours.perStepMs.p50, steps.floor.perStepMs.p50),
          workerCpuMsPerStep: steps.ours.cpuMsPerStep.worker,
          serverCpuMsPerStep: steps.ours.cpuMsPerStep.server,
          eventsPerAutomaticStep: history.perAutomaticStep.events,
          bytesPerAutomaticStep: history.perAutomaticStep.bytes,
          eventsPerGatedStep: history.perGatedStep.events,
        },
      };
    });
  });

  // 3. The listings in the decision's own workflow task, as before: what starting the tool first bought a decision.
  await decisionTaskExperiment(ctx, experiments, samples, {
    name: 'listings-in-decision-task',
    swap: 'listingsInDecisionTask',
    what: "the agent workflow with the search-attribute and memo upserts and the cancelled deadline timer in the decision's own workflow task, as before the tool started first (src/workflows/patches.ts swapped in a bench-only bundle)",
  });
  // 3b. The decision's task as of patch set 10: what the tool's own wake-up and the await-free way to it bought.
  await decisionTaskExperiment(ctx, experiments, samples, {
    name: 'decision-task-set-10',
    swap: 'decisionTaskSet10',
    what: "the agent workflow's decision task as of patch set 10: it starts the timer that bounds how long lists lag behind the decision, and the call awaits its consent check and answer on its way to the tool (src/workflows/patches.ts swapped in a bench-only bundle, without patch toolWakesListings)",
  });

  // 3c. Against a floor that pauses as ours does: how much of the gap to the bare floor is the events a pause writes
  //     (which the decision's task carries to the worker), and how much our code.
  await decisionTaskExperiment(ctx, experiments, samples, {
    name: 'floor-paused-like-ours',
    floor: 'floorPausedLikeOursWorkflow',
    what: "the agent workflow as shipped, against a floor whose pausing workflow task writes what ours writes there: our search attributes, a memo of about the size of ours and a deadline timer it leaves pending (floorPausedLikeOursWorkflow in bench/floor/workflows.ts), so that the decision's workflow task carries the same events to the worker on both sides",
  });

  // 4. Eager activity execution off, as the server ships: what DEV_SERVER_DYNAMIC_CONFIG (and the compose file) buy.
  await onAnotherServer(ctx, experiments, samples, {
    name: 'eager-activities-off',
    what: "system.enableActivityEagerExecution=false (the server's default; ours turn it on)",
    dynamicConfig: { 'system.enableActivityEagerExecution': false },
  });
  // 5. Every setting in src/dev/server-dynamic-config.ts at Temporal's default: a plain self-hosted server.
  await onAnotherServer(ctx, experiments, samples, {
    name: 'temporal-defaults',
    what: `Temporal's defaults for every setting we change (${Object.entries(TEMPORAL_DEFAULT_DYNAMIC_CONFIG)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')})`,
    dynamicConfig: TEMPORAL_DEFAULT_DYNAMIC_CONFIG,
  });
  return experiments;
}

/**
 * Decision sent → tool starts and the decision's workflow task, ours against a floor in one window: a bench-only
 * bundle of ours (`swap`) or the shipped one, against the bare floor or the one that pauses like ours (`floor`).
 */
async function decisionTaskExperiment(
  ctx: BenchContext,
  experiments: Experiment[],
  samples: number,
  experiment: { name: string; swap?: keyof typeof SWAPS; floor?: FloorWorkflow; what: string },
): Promise<void> {
  const description = `${experiment.what}, ${samples} decision samples against ${experiment.floor === 'floorPausedLikeOursWorkflow' ? 'that floor' : 'the floor'} in the same window`;
  await attempt(ctx, experiments, experiment.name, description, async () => {
    ctx.log(`experiment: ${experiment.name}${experiment.swap ? ' (bench-only bundle of the agent workflow)' : ''}`);
    return onFreshWorker(ctx, experiment.swap, async (worker) => {
      const latency = await measureDecisionLatency(ctx, worker, undefined, {
        series: ['oursUpdate', 'floorUpdate'],
        samples,
        ...(experiment.floor && { floor: experiment.floor }),
      });
      const ours = latency.series.oursUpdate!;
      const base = latency.series.floorUpdate!;
      ctx.log(`  decision sent → tool starts ${ours.sentToToolStart.p50} vs floor ${base.sentToToolStart.p50} ms`);
      return {
        name: experiment.name,
        description,
        overrides: {},
        metrics: {
          sentToToolStartP50Ms: ours.sentToToolStart.p50,
          sentToToolStartP99Ms: ours.sentToToolStart.p99,
          floorSentToToolStartP50Ms: base.sentToToolStart.p50,
          floorSentToToolStartP99Ms: base.sentToToolStart.p99,
          toolStartRatioP50: ratio(ours.sentToToolStart.p50, base.sentToToolStart.p50),
          toolStartRatioP99: ratio(ours.sentToToolStart.p99, base.sentToToolStart.p99),
          taskStartedToCompletedP50Ms: ours.decisionTask!.taskStartedToCompleted.p50,
          taskCompletedToToolStartP50Ms: ours.decisionTask!.taskCompletedToToolStart.p50,
          floorTaskStartedToCompletedP50Ms: base.decisionTask!.taskStartedToCompleted.p50,
          floorTaskCompletedToToolStartP50Ms: base.decisionTask!.taskCompletedToToolStart.p50,
        },
      };
    });
  });
}

/**
 * Decision latency and step overhead, ours and the floor, on a second dev server with other dynamic config and a
 * fresh worker process, in the same run as the main measurements.
 */
async function onAnotherServer(
  ctx: BenchContext,
  experiments: Experiment[],
  samples: number,
  experiment: { name: string; what: string; dynamicConfig: Record<string, DynamicConfigValue> },
): Promise<void> {
  const description = `a second dev server with ${experiment.what}, ${samples} decision samples and ${ctx.settings.stepRepetitions} step run(s), ours and the floor, on a fresh worker process`;
  await attempt(ctx, experiments, experiment.name, description, async () => {
    ctx.log(`experiment: ${experiment.name} (a second dev server)`);
    const server = await startDevServer({
      forceStart: true,
      uiPort: false,
      port: await getPort(),
      namespace: ctx.namespace,
      ...(ctx.serverDbFile && { dbFile: path.join(ctx.tmpDir, `temporal-${experiment.name}.db`) }),
      dynamicConfig: experiment.dynamicConfig,
      progress: () => {},
    });
    const { connection, client } = await connectClient(server);
    const other: BenchContext = { ...ctx, address: server.address, server, connection, client };
    const worker = await startWorkerChild(other, { floor: true, record: true });
    try {
      const latency = await measureDecisionLatency(other, worker, undefined, { series: ['oursUpdate', 'floorUpdate'], samples });
      const steps = await measureStepOverhead(other, worker);
      const ours = latency.series.oursUpdate!;
      ctx.log(
        `  ${experiment.name}: decision ${ours.decisionToNextCall!.p50} ms, step ${steps.ours.perStepMs.p50} ms, floor step ${steps.floor.perStepMs.p50} ms`,
      );
      return {
        name: experiment.name,
        description,
        overrides: {},
        metrics: {
          decisionP50Ms: ours.decisionToNextCall!.p50,
          floorDecisionP50Ms: latency.series.floorUpdate!.decisionToNextCall!.p50,
          sentToToolStartP50Ms: ours.sentToToolStart.p50,
          stepP50Ms: steps.ours.perStepMs.p50,
          floorStepP50Ms: steps.floor.perStepMs.p50,
          stepRatioP50: ratio(steps.ours.perStepMs.p50, steps.floor.perStepMs.p50),
        },
      };
    } finally {
      await worker.stop();
      await connection.close().catch(() => {});
      await server.stop();
    }
  });
}
