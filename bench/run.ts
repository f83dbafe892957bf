/**
 * `npm run bench` — what durability costs, against the floor (bare Temporal round trips on the same server) and
 * a peer (LangGraph.js human-in-the-loop with a SQLite checkpointer), in one run on this machine. Writes
 * RESULTS.md and results.json (to bench/, or --out DIR).
 *
 *   npm run bench                 full run (10,000 paused runs; long, loads the machine)
 *   npm run bench -- --quick      CI-sized (under 2 minutes on 2 cores)
 *   options: --out DIR  --density N  --samples N  --server-db file|memory  --experiments / --no-experiments
 *            --experiment NAME (only that one; repeatable)  --small-heaps
 *            --render-only (RESULTS.md again from results.json)
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import getPort from 'get-port';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startDevServer } from '../src/dev/dev-server.js';
import { startModelServer } from '../src/model-server/server.js';
import { bundleWorkflows } from '../src/workflow-bundle.js';
import { benchScript } from './bench-agent.js';
import { runCommand } from './command.js';
import { connectClient, startPeerChild, startWorkerChild, type BenchContext, type BenchSettings, type ChildEnv } from './context.js';
import { quietLogger, runExperiments } from './experiments.js';
import { BENCH_DIR } from './ipc.js';
import { machineDetails } from './machine.js';
import { renderReport } from './report.js';
import { BenchResults, ClusterDensityResults, type LatencySeries, type Target } from './schema.js';
import { measureContinueAsNew } from './scenarios/continue-as-new.js';
import { measureDensity } from './scenarios/density.js';
import { EVICTED_SIZES, measureEvicted } from './scenarios/evicted.js';
import { measureHistory } from './scenarios/history.js';
import { latencyCacheSize, measureDecisionLatency, type SeriesName } from './scenarios/latency.js';
import { measureOpenaiAgentsHistory } from './scenarios/openai-agents-history.js';
import { measurePeerDensity, peerDensityFile } from './scenarios/peer-density.js';
import { measureStepOverhead } from './scenarios/steps.js';
import { measureStreaming } from './scenarios/streaming.js';
import { DEFAULT_TOKEN_BATCHING } from '../src/activities/token-publisher.js';
import { exactRatio, ratio, ratioInterval, round, withinRatio } from './stats.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
    density: { type: 'string' },
    samples: { type: 'string' },
    'server-db': { type: 'string', default: 'file' },
    experiments: { type: 'boolean' },
    'no-experiments': { type: 'boolean' },
    experiment: { type: 'string', multiple: true, default: [] },
    /** The density worker with createWorker's optimizeForSize (HITL_WORKER_SMALL_HEAPS). */
    'small-heaps': { type: 'boolean', default: false },
    /** Re-render RESULTS.md from an existing results.json (after a change to the report's wording); measures nothing. */
    'render-only': { type: 'boolean', default: false },
  },
});

const quick = args.quick!;
const settings: BenchSettings = {
  mode: quick ? 'quick' : 'full',
  latencySamples: Number(args.samples ?? (quick ? 15 : 400)),
  warmupSamples: quick ? 2 : 10,
  steps: 50,
  stepRepetitions: quick ? 1 : 10,
  densityRuns: Number(args.density ?? (quick ? 50 : 10_000)),
  decideConcurrency: quick ? 50 : 100,
  experiments: args['no-experiments'] ? false : (args.experiments ?? (args.experiment!.length > 0 || !quick)),
  onlyExperiments: args.experiment!,
};
const outDir = path.resolve(args.out ?? BENCH_DIR);
const serverStorage = args['server-db'] === 'memory' ? 'memory' : 'sqlite-file';
const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');

const started = Date.now();
const log = (line: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}\n`);

async function writeBundle(file: string, bundling: Promise<{ code: string }>): Promise<string> {
  // The agent workflow is bundled from the working tree as it is now (src/ may be changing under us). Written
  // atomically: worker processes started meanwhile wait for the file.
  const { code } = await bundling;
  writeFileSync(`${file}.tmp`, code);
  renameSync(`${file}.tmp`, file);
  return file;
}

async function main(): Promise<void> {
  const tmpDir = mkdtempSync(path.join(tmpdir(), 'hitl-bench-'));
  const serverDbFile = serverStorage === 'sqlite-file' ? path.join(tmpDir, 'temporal.db') : undefined;
  const model = await startModelServer({ script: benchScript(settings.steps - 1) });
  const port = await getPort();
  const env: ChildEnv = {
    address: `127.0.0.1:${port}`,
    namespace: 'default',
    model,
    agentBundlePath: path.join(tmpDir, 'agent-workflows.js'),
    floorBundlePath: path.join(tmpDir, 'floor-workflows.js'),
    openaiAgentsBundlePath: path.join(tmpDir, 'openai-agents-workflows.js'),
  };
  log(`${settings.mode} run; dev server (${serverStorage}), workflow bundles, worker and LangGraph processes`);
  // Everything starts at once; the worker processes wait for the server and the bundles. The density scenario's
  // worker and peer get processes of their own (their RSS must be theirs alone); they idle until then.
  const [server, , , , worker, peer, densityWorker, densityPeer] = await Promise.all([
    startDevServer({
      forceStart: true,
      uiPort: false,
      port,
      namespace: env.namespace,
      ...(serverDbFile && { dbFile: serverDbFile }),
      progress: (l) => log(l),
    }),
    writeBundle(env.agentBundlePath, bundleWorkflows({ logger: quietLogger })),
    writeBundle(
      env.floorBundlePath,
      bundleWorkflowCode({ workflowsPath: path.join(BENCH_DIR, 'floor', 'workflows.ts'), logger: quietLogger }),
    ),
    writeBundle(
      env.openaiAgentsBundlePath!,
      bundleWorkflowCode({ workflowsPath: path.join(BENCH_DIR, 'peer', 'openai-agents', 'workflows.ts'), logger: quietLogger }),
    ),
    // Every run of a latency batch stays cached until decided (createWorker's default cache would evict most of
    // ours and time decisions on evicted runs; section 6 measures those on purpose).
    startWorkerChild(env, {
      floor: true,
      openaiAgents: true,
      record: true,
      overrides: { maxCachedWorkflows: latencyCacheSize(settings.latencySamples, settings.warmupSamples) },
    }),
    startPeerChild(env, path.join(tmpDir, 'peer-latency.sqlite')),
    startWorkerChild(env, { floor: false, record: false, optimizeForSize: args['small-heaps'] }),
    startPeerChild(env, peerDensityFile({ tmpDir })),
  ]);
  const { connection, client } = await connectClient(server);
  const ctx: BenchContext = { ...env, settings, server, serverDbFile, connection, client, tmpDir, log };
  try {
    const machine = machineDetails(server.cliPath, serverStorage);

    let latency, steps, history, openaiAgentsHistory;
    try {
      log(`decision latency: ${settings.latencySamples} samples (+${settings.warmupSamples} warm-up) × 6 series, interleaved`);
      latency = await measureDecisionLatency(ctx, worker, peer);
      log(`step overhead: ${settings.stepRepetitions} × ${settings.steps}-step runs, ours and floor alternating`);
      steps = await measureStepOverhead(ctx, worker);
      log('history cost');
      history = {
        ...(await measureHistory(ctx, worker, { ...latency, stepsRunId: steps.stepsRunId, steps: settings.steps })),
        continueAsNew: await measureContinueAsNew(ctx, worker),
      };
      openaiAgentsHistory = await measureOpenaiAgentsHistory(ctx, latency.openaiAgentsRunId!);
    } finally {
      await Promise.all([worker.stop(), peer.stop()]);
    }
    ctx.model.clearRequests();

    // Quick runs decide at the smallest size only: the larger templates take a minute to build.
    const evictedSizes = quick ? EVICTED_SIZES.slice(0, 1) : EVICTED_SIZES;
    log(`evicted runs at ${evictedSizes.map((e) => e.events).join(', ')} events, on a dev server of its own`);
    const evicted = await measureEvicted(ctx, quick ? 3 : undefined, evictedSizes);
    ctx.model.clearRequests();

    const stream = { tokens: quick ? 300 : 1000, msPerToken: quick ? 10 : 20, batchIntervalMs: DEFAULT_TOKEN_BATCHING.batchIntervalMs };
    log(`streaming: a ${stream.tokens}-token answer, ${stream.msPerToken} ms a token, with and without streaming, then watched`);
    const streaming = await measureStreaming(
      { address: env.address, namespace: env.namespace, client: ctx.client, bundlePath: env.agentBundlePath },
      stream,
    );

    log(`density: ${settings.densityRuns} runs paused at once on one worker process`);
    const density = await measureDensity(ctx, {
      runs: settings.densityRuns,
      concurrency: settings.decideConcurrency,
      worker: densityWorker,
      // A replacement worker (if this one dies) runs as it did.
      optimizeForSize: args['small-heaps'],
    });
    ctx.model.clearRequests();
    log(`peer density: ${settings.densityRuns} LangGraph threads paused at once in one process`);
    const peerDensity = await measurePeerDensity(ctx, settings.densityRuns, settings.decideConcurrency, densityPeer);

    const experiments = settings.experiments ? await runExperiments(ctx) : [];

    const s = latency.series as Record<SeriesName, LatencySeries>;
    const ours = s.oursUpdate;
    const decisionRatios = {
      toolStartP50: ratio(ours.sentToToolStart.p50, s.floorUpdate.sentToToolStart.p50),
      toolStartP99: ratio(ours.sentToToolStart.p99, s.floorUpdate.sentToToolStart.p99),
      toolStartP50Interval: ratioInterval(ours.sentToToolStartMs!, s.floorUpdate.sentToToolStartMs!, 50),
      toolStartP99Interval: ratioInterval(ours.sentToToolStartMs!, s.floorUpdate.sentToToolStartMs!, 99),
      updateP50: ratio(ours.decisionToNextCall!.p50, s.floorUpdate.decisionToNextCall!.p50),
      updateP99: ratio(ours.decisionToNextCall!.p99, s.floorUpdate.decisionToNextCall!.p99),
      signalP50: ratio(s.oursSignal.decisionToNextCall!.p50, s.floorSignal.decisionToNextCall!.p50),
      signalP99: ratio(s.oursSignal.decisionToNextCall!.p99, s.floorSignal.decisionToNextCall!.p99),
      updateVsSignalFloorP50: ratio(ours.decisionToNextCall!.p50, s.floorSignal.decisionToNextCall!.p50),
    };
    const stepRatio = ratio(steps.ours.perStepMs.p50, steps.floor.perStepMs.p50);
    const cpuRatio = ratio(
      steps.ours.cpuMsPerStep.worker + steps.ours.cpuMsPerStep.server,
      steps.floor.cpuMsPerStep.worker + steps.floor.cpuMsPerStep.server,
    );
    const peerRatios = {
      resumeToToolP50: ratio(ours.sentToToolStart.p50, s.peer.sentToToolStart.p50),
      resumeToToolP99: ratio(ours.sentToToolStart.p99, s.peer.sentToToolStart.p99),
      resumeToNextCallP50: ratio(ours.sentToNextCall.p50, s.peer.sentToNextCall.p50),
      memoryPerPausedRun:
        peerDensity.perPausedThreadBytes > 0 ? ratio(density.worker.perPausedRunBytes, peerDensity.perPausedThreadBytes) : null,
    };
    const oa = s.openaiAgents;
    const openaiAgentsRatios = {
      sentToToolStartP50: ratio(ours.sentToToolStart.p50, oa.sentToToolStart.p50),
      sentToToolStartP99: ratio(ours.sentToToolStart.p99, oa.sentToToolStart.p99),
      historyEvents: ratio(history.gatedRunUpdate.events, openaiAgentsHistory.events),
    };
    // A run with 1,000 events of work, as it waits by default (continued as new first); the full history's replay beside it.
    const evicted1000 = evicted.sizes.find((size) => size.continued);
    const whole1000 = evicted.sizes.find((size) => size.events >= 1000 && size.events < 2000 && !size.continued);
    const GiB = 1024 ** 3;
    const full = density.runs >= 10_000;
    const targets: Target[] = [
      {
        id: 'decision-latency',
        target: 'decision sent → tool started ≤ 1.1× the floor at p50 and p99 (update against update, ≥ 200 samples)',
        measured: `${decisionRatios.toolStartP50}× at p50 (${atTheLine(ours.sentToToolStartMs!, s.floorUpdate.sentToToolStartMs!, 1.1)}${ours.sentToToolStart.p50} vs ${s.floorUpdate.sentToToolStart.p50} ms; 95% interval ${decisionRatios.toolStartP50Interval.join('–')}), ${decisionRatios.toolStartP99}× at p99 (${ours.sentToToolStart.p99} vs ${s.floorUpdate.sentToToolStart.p99} ms; ${decisionRatios.toolStartP99Interval.join('–')}); n = ${ours.sentToToolStart.n}. Decision returned → next model call: ${decisionRatios.updateP50}× at p50, ${decisionRatios.updateP99}× at p99`,
        met:
          full && ours.sentToToolStart.n >= 200
            ? [50, 99].every((p) => withinRatio(ours.sentToToolStartMs!, s.floorUpdate.sentToToolStartMs!, p, 1.1))
            : null,
      },
      {
        id: 'step-overhead',
        target: 'step overhead ≤ 1.1× the floor',
        measured: `${stepRatio}× (${steps.ours.perStepMs.p50} vs ${steps.floor.perStepMs.p50} ms per step)`,
        met: stepRatio <= 1.1,
      },
      {
        id: 'evicted-decision',
        target: 'deciding an evicted run ≤ 2× a cached run at 1,000 events (decision sent → tool starts, p50)',
        measured: evicted1000
          ? `${evicted1000.ratioP50}× after 1,000 events of work (continued as new before waiting: ${evicted1000.events} events to replay; ${evicted1000.evicted.sentToToolStart.p50} vs ${evicted1000.cached.sentToToolStart.p50} ms), ${evicted1000.ratioP99}× at p99${whole1000 ? `; ${whole1000.ratioP50}× for a run that replays all ${whole1000.events} events` : ''}${evicted.floor ? `; the bare floor workflow: ${evicted.floor.ratioP50}× (${evicted.floor.replayCostMsP50} ms of replay against our ${evicted1000.replayCostMsP50})` : ''}`
          : `${evicted.sizes.map((e) => `${e.ratioP50}× at ${e.events} events`).join(', ')} (1,000 events in full runs only)`,
        met: evicted1000 ? evicted1000.ratioP50 <= 2 : null,
      },
      {
        id: 'density',
        target: '10,000 paused runs, peak worker RSS ≤ 1 GiB, 100% completion',
        measured: `${density.runs} paused, worker RSS ${round(density.worker.pausedRssBytes / 2 ** 20, 0)} MiB (peak ${round(density.worker.peakRssBytes / 2 ** 20, 0)} MiB), ${round(density.completion * 100, 2)}% completed`,
        met: full ? density.worker.peakRssBytes <= GiB && density.completion === 1 : null,
      },
      {
        id: 'history-events',
        target: '≤ 10 history events per automatic step',
        measured: `${history.perAutomaticStep.events} events per automatic step`,
        met: history.perAutomaticStep.events <= 10,
      },
      {
        id: 'peer-resume',
        target: "resume-to-tool latency ≤ the peer's",
        measured: `${peerRatios.resumeToToolP50}× the peer at p50 (${ours.sentToToolStart.p50} vs ${s.peer.sentToToolStart.p50} ms), ${peerRatios.resumeToToolP99}× at p99`,
        met: peerRatios.resumeToToolP50 <= 1,
      },
    ];

    const results = BenchResults.parse({
      schemaVersion: 1,
      mode: settings.mode,
      command,
      startedAt: new Date(started).toISOString(),
      durationSeconds: round((Date.now() - started) / 1000, 1),
      machine,
      settings: {
        latencySamples: settings.latencySamples,
        warmupSamples: settings.warmupSamples,
        steps: settings.steps,
        stepRepetitions: settings.stepRepetitions,
        densityRuns: settings.densityRuns,
        decideConcurrency: settings.decideConcurrency,
      },
      decisionLatency: {
        ours: { update: s.oursUpdate, signal: s.oursSignal },
        floor: { update: s.floorUpdate, signal: s.floorSignal },
        openaiAgents: oa,
        ratios: decisionRatios,
      },
      stepOverhead: { steps: settings.steps, ours: steps.ours, floor: steps.floor, ratioP50: stepRatio, cpuRatio },
      density,
      history,
      peer: {
        latency: s.peer,
        threads: peerDensity.threads,
        pauseSeconds: peerDensity.pauseSeconds,
        baselineRssBytes: peerDensity.baselineRssBytes,
        pausedRssBytes: peerDensity.pausedRssBytes,
        perPausedThreadBytes: peerDensity.perPausedThreadBytes,
        checkpointFileBytes: peerDensity.checkpointFileBytes,
        drain: peerDensity.drain,
        completed: peerDensity.completed,
        ratios: peerRatios,
      },
      openaiAgentsPeer: { history: openaiAgentsHistory, ratios: openaiAgentsRatios },
      evicted,
      targets,
      experiments,
      streaming,
    });

    mkdirSync(outDir, { recursive: true });
    const jsonFile = path.join(outDir, 'results.json');
    writeFileSync(`${jsonFile}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
    renameSync(`${jsonFile}.tmp`, jsonFile);
    writeFileSync(path.join(outDir, 'RESULTS.md'), renderReport(results, clusterResults()));
    log(
      `done in ${results.durationSeconds}s: ${path.relative(process.cwd(), jsonFile)}, ${path.relative(process.cwd(), path.join(outDir, 'RESULTS.md'))}`,
    );
    for (const t of targets) log(`  ${t.met === null ? 'n/a ' : t.met ? 'MET ' : 'MISS'} ${t.target}: ${t.measured}`);
  } catch (err) {
    // Said before the cleanup below: calls still retrying on the closed connection can crash the process first.
    log(`failed: ${(err as Error).stack ?? err}`);
    throw err;
  } finally {
    await connection.close().catch(() => {});
    await model.close().catch(() => {});
    await server.stop();
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

/** The unrounded p50 ratio, said when its rounded form is the target itself (which would read as met either way). */
function atTheLine(a: readonly number[], b: readonly number[], limit: number): string {
  const exact = exactRatio(a, b, 50);
  return round(exact, 3) === limit ? `${exact.toFixed(4)} before rounding; ` : '';
}

/** `npm run bench:cluster-density`'s results beside ours, when there are any: RESULTS.md cites them. */
function clusterResults(): ClusterDensityResults | undefined {
  const file = path.join(outDir, 'cluster-density.json');
  return existsSync(file) ? ClusterDensityResults.parse(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
}

function renderOnly(): void {
  const results = BenchResults.parse(JSON.parse(readFileSync(path.join(outDir, 'results.json'), 'utf8')));
  writeFileSync(path.join(outDir, 'RESULTS.md'), renderReport(results, clusterResults()));
  log(
    `re-rendered ${path.relative(process.cwd(), path.join(outDir, 'RESULTS.md'))} from results.json (${results.command}, ${results.startedAt})`,
  );
}

runCommand(args['render-only'] ? async () => renderOnly() : main, { measures: !args['render-only'] });
