/**
 * `npm run bench:decision` — the decision-latency scenario of `npm run bench` alone (bench/scenarios/latency.ts): our
 * agent workflow and the floor, decided by update and by signal, interleaved sample by sample on a dev server of its
 * own. Prints the target's ratio and where each side's decision task goes, and writes decision.json, for a change to
 * the decision's workflow task that does not need the whole run to be measured.
 *
 *   npm run bench:decision                 200 samples per series
 *   options: --samples N  --out DIR  --update-only  --all-series  --order balanced|cycle  --floor-paused-like-ours
 *            --stack-frames N  --floor-stack-frames N
 *
 * --all-series adds the two peers (LangGraph and the OpenAI-Agents pattern) to the interleaving, as the full run has
 * them: the latency scenario of `npm run bench` as it runs there, without the rest.
 *
 * --order cycle takes the samples in the fixed cycle the bench used before its balanced order (bench/sample-order.ts),
 * to measure what the order does.
 *
 * --floor-paused-like-ours decides, in the floor's series, a floor whose pausing workflow task writes what ours writes
 * there (search attributes, memo, a deadline timer: floorPausedLikeOursWorkflow in bench/floor/workflows.ts), so that
 * the decision's task carries the same events to the worker on both sides and what is left of the gap is our code.
 * The target is judged against the bare floor; this compares, it does not judge.
 *
 * --stack-frames and --floor-stack-frames price the SDK's stack capture (experiment only, never deployed): for every
 * promise a workflow makes, the SDK's promise hook captures a stack of Error.stackTraceLimit frames (10) and
 * source-maps each frame, for the `__stack_trace` query. Either option preloads a module that sets that limit in the
 * sandbox of our bundle or of the floor's; RESULTS.md's account of the decision's remaining gap says what came of it.
 *
 * --activation-times times the decision's activation inside the worker process (bench/activation-times.cjs): in the
 * workflow sandbox, with the promises made there, and on the worker's main thread, for ours and the floor. It tells
 * what of the decision task's gap is our workflow code; the timing itself costs a few microseconds an activation.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import getPort from 'get-port';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startDevServer } from '../src/dev/dev-server.js';
import { startModelServer } from '../src/model-server/server.js';
import { bundleWorkflows, PRELOADED_MODULES } from '../src/workflow-bundle.js';
import { activationTimes } from './activation-times.js';
import { benchScript } from './bench-agent.js';
import { runCommand } from './command.js';
import { connectClient, startPeerChild, startWorkerChild, type BenchContext, type BenchSettings } from './context.js';
import { quietLogger } from './experiments.js';
import { BENCH_DIR } from './ipc.js';
import { machineDetails } from './machine.js';
import { ALL_SERIES, latencyCacheSize, measureDecisionLatency, type FloorWorkflow, type SeriesName } from './scenarios/latency.js';
import { SAMPLE_ORDERS, type SampleOrderName } from './sample-order.js';
import { ratio, ratioInterval } from './stats.js';

const { values: args } = parseArgs({
  options: {
    samples: { type: 'string' },
    out: { type: 'string' },
    'update-only': { type: 'boolean', default: false },
    'all-series': { type: 'boolean', default: false },
    order: { type: 'string', default: 'balanced' },
    'floor-paused-like-ours': { type: 'boolean', default: false },
    'stack-frames': { type: 'string' },
    'floor-stack-frames': { type: 'string' },
    'activation-times': { type: 'boolean', default: false },
  },
});
const samples = Number(args.samples ?? 200);
const series: SeriesName[] = args['update-only']
  ? ['oursUpdate', 'floorUpdate']
  : args['all-series']
    ? ALL_SERIES
    : ['oursUpdate', 'floorUpdate', 'oursSignal', 'floorSignal'];
if (!(args.order! in SAMPLE_ORDERS)) throw new Error(`--order takes ${Object.keys(SAMPLE_ORDERS).join(' or ')}, not ${args.order}`);
const order = args.order as SampleOrderName;
const floorWorkflow: FloorWorkflow = args['floor-paused-like-ours'] ? 'floorPausedLikeOursWorkflow' : 'floorDecisionWorkflow';
const started = Date.now();
const log = (line: string) => process.stderr.write(`[decision ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}\n`);

/**
 * A module that sets the sandbox's Error.stackTraceLimit, preloaded so it runs before the SDK freezes the sandbox's
 * globals (src/workflow-bundle.ts): after that, workflow code cannot change it. None when the option is not given.
 */
function stackFramesPreload(dir: string, option: 'stack-frames' | 'floor-stack-frames'): string[] {
  const frames = args[option];
  if (frames === undefined) return [];
  const limit = Number(frames);
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`--${option} takes a whole number, not ${frames}`);
  const file = path.join(dir, `${option}.js`);
  writeFileSync(file, `Error.stackTraceLimit = ${limit};\nexport const STACK_FRAMES = Error.stackTraceLimit;\n`);
  return [file];
}

/** A bundle's code, checked to hold the preloaded module that sets its stack frames (if any). */
function holding(code: string, preloads: string[]): string {
  for (const file of preloads) if (!code.includes(path.basename(file))) throw new Error(`the bundle does not preload ${file}`);
  return code;
}

async function main(): Promise<void> {
  const tmpDir = mkdtempSync(path.join(tmpdir(), 'hitl-decision-'));
  const model = await startModelServer({ script: benchScript(49) });
  const port = await getPort();
  const env = {
    address: `127.0.0.1:${port}`,
    namespace: 'default',
    model,
    agentBundlePath: path.join(tmpDir, 'agent-workflows.js'),
    floorBundlePath: path.join(tmpDir, 'floor-workflows.js'),
    ...(args['all-series'] && { openaiAgentsBundlePath: path.join(tmpDir, 'openai-agents-workflows.js') }),
  };
  const oursFrames = stackFramesPreload(tmpDir, 'stack-frames');
  const floorFrames = stackFramesPreload(tmpDir, 'floor-stack-frames');
  writeFileSync(
    env.agentBundlePath,
    holding((await bundleWorkflows({ logger: quietLogger, preloadModules: [...PRELOADED_MODULES, ...oursFrames] })).code, oursFrames),
  );
  writeFileSync(
    env.floorBundlePath,
    holding(
      (
        await bundleWorkflowCode({
          workflowsPath: path.join(BENCH_DIR, 'floor', 'workflows.ts'),
          preloadModules: floorFrames,
          logger: quietLogger,
        })
      ).code,
      floorFrames,
    ),
  );
  if (env.openaiAgentsBundlePath) {
    const { code } = await bundleWorkflowCode({
      workflowsPath: path.join(BENCH_DIR, 'peer', 'openai-agents', 'workflows.ts'),
      logger: quietLogger,
    });
    writeFileSync(env.openaiAgentsBundlePath, code);
  }
  const serverDbFile = path.join(tmpDir, 'temporal.db');
  const server = await startDevServer({ forceStart: true, uiPort: false, port, dbFile: serverDbFile, progress: log });
  const settings: BenchSettings = {
    mode: 'full',
    latencySamples: samples,
    warmupSamples: 10,
    steps: 50,
    stepRepetitions: 0,
    densityRuns: 0,
    decideConcurrency: 1,
    experiments: false,
    onlyExperiments: [],
  };
  const timesFile = path.join(tmpDir, 'activation-times.txt');
  if (args['activation-times']) process.env.BENCH_ACTIVATION_TIMES_FILE = timesFile;
  // As in npm run bench: every sampled run stays cached until decided.
  const worker = await startWorkerChild(env, {
    floor: true,
    openaiAgents: args['all-series'],
    record: true,
    overrides: { maxCachedWorkflows: latencyCacheSize(samples, settings.warmupSamples) },
  });
  const peer = args['all-series'] ? await startPeerChild(env, path.join(tmpDir, 'peer-latency.sqlite')) : undefined;
  const { connection, client } = await connectClient(server);
  const ctx: BenchContext = { ...env, settings, server, serverDbFile, connection, client, tmpDir, log };
  try {
    log(`${samples} samples (+${settings.warmupSamples} warm-up) × ${series.length} series, interleaved`);
    const latency = await measureDecisionLatency(ctx, worker, peer, { series, order, floor: floorWorkflow });
    const ours = latency.series.oursUpdate!.sentToToolStart;
    const floor = latency.series.floorUpdate!.sentToToolStart;
    const interval = (p: number) =>
      ratioInterval(latency.series.oursUpdate!.sentToToolStartMs!, latency.series.floorUpdate!.sentToToolStartMs!, p).join('–');
    const lines = [
      `decision sent → tool starts, ours ÷ floor by update: ${ratio(ours.p50, floor.p50)}× at p50 (${ours.p50} vs ${floor.p50} ms; 95% interval ${interval(50)}), ` +
        `${ratio(ours.p99, floor.p99)}× at p99 (${ours.p99} vs ${floor.p99} ms; ${interval(99)}), n = ${ours.n}`,
      `the floor: ${floorWorkflow === 'floorDecisionWorkflow' ? 'bare (floorDecisionWorkflow)' : 'paused like ours: its pause writes our search attributes, a memo and a deadline timer (floorPausedLikeOursWorkflow)'}`,
      `stack frames the SDK captures per workflow promise: ours ${args['stack-frames'] ?? '10 (default)'}, the floor's ${args['floor-stack-frames'] ?? '10 (default)'}`,
      'series: sent → task scheduled | task started → completed | task completed → tool starts | sent → tool starts (p50, ms)',
      ...series.map((name) => {
        const s = latency.series[name]!;
        const t = s.decisionTask;
        const spans = t ? [t.sentToTaskScheduled.p50, t.taskStartedToCompleted.p50, t.taskCompletedToToolStart.p50] : [];
        return `${name}: ${[...spans, s.sentToToolStart.p50].join(' | ')}  (events: ${t?.taskEvents.join(', ') ?? '–'})`;
      }),
      'decision sent → tool starts by the series sampled just before (p50 ms, samples):',
      ...(['oursUpdate', 'floorUpdate'] as const).map((name) => {
        const after = Object.entries(latency.series[name]!.sentToToolStartAfter ?? {});
        return `${name} after ${after.map(([before, { n, p50 }]) => `${before} ${p50} (${n})`).join(', ')}`;
      }),
    ];
    if (args['activation-times']) lines.push(...activationLines(readFileSync(timesFile, 'utf8'), worker));
    console.log(lines.join('\n'));
    mkdirSync(args.out ? path.resolve(args.out) : tmpDir, { recursive: true });
    if (args.out) {
      const machine = machineDetails(server.cliPath, 'sqlite-file');
      const command = ['npm run bench:decision', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
      const file = path.join(path.resolve(args.out), 'decision.json');
      writeFileSync(file, `${JSON.stringify({ command, startedAt: new Date(started).toISOString(), machine, latency }, null, 2)}\n`);
      log(`wrote ${file}`);
    }
  } finally {
    await Promise.all([worker.stop(), peer?.stop()]);
    await connection.close();
    await server.stop();
    await model.close();
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

/** The decision's activation inside the worker, ours against the floor's (all decisions, warm-up included). */
function activationLines(lines: string, worker: { taskQueue: string; floorTaskQueue?: string }): string[] {
  const times = activationTimes(lines, { ours: worker.taskQueue, floor: worker.floorTaskQueue ?? '' });
  const side = (name: 'ours' | 'floor') => {
    const t = times[name];
    return t ? `${name} ${t.sandbox.p50} µs (${t.promises} promises) | ${t.worker.p50} µs, n = ${t.sandbox.n}` : `${name} –`;
  };
  return ["the decision's activation, p50: in the workflow sandbox | on the worker's main thread, all of it", side('ours'), side('floor')];
}

runCommand(main);
