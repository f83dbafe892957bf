/**
 * `npm run bench:heap-growth` — what createWorker's heap growth limit and cache size (src/worker.ts,
 * DEFAULT_HEAP_GROWTH_PERCENT, DEFAULT_MAX_CACHED_RUNS) cost and buy a worker deciding many paused runs. One dev
 * server and model; for each configuration a fresh worker process (so its RSS is its own) runs the density
 * scenario: N runs paused at once, then all decided. Writes bench/HEAP-GROWTH.md (and .json: every figure, with
 * the server's dynamic config).
 *
 *   npm run bench:heap-growth       # 2,000 runs: V8's heuristic and our default growth at our cache, and a cache of 200
 *   options: --runs N  --config GROWTH/CACHE (repeatable; replaces the three)  --out DIR
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import getPort from 'get-port';
import { startDevServer } from '../src/dev/dev-server.js';
import { startModelServer } from '../src/model-server/server.js';
import { DEFAULT_HEAP_GROWTH_PERCENT, DEFAULT_MAX_CACHED_RUNS } from '../src/worker.js';
import { bundleWorkflows } from '../src/workflow-bundle.js';
import { benchScript } from './bench-agent.js';
import { runCommand } from './command.js';
import { connectClient, startWorkerChild, type BenchContext } from './context.js';
import { quietLogger } from './experiments.js';
import { BENCH_DIR } from './ipc.js';
import { machineDetails } from './machine.js';
import { measureDensity } from './scenarios/density.js';
import { round } from './stats.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    config: { type: 'string', multiple: true, default: [] },
    out: { type: 'string' },
  },
});
const runs = Number(args.runs);
const configurations = (
  args.config!.length
    ? args.config!
    : [`0/${DEFAULT_MAX_CACHED_RUNS}`, `${DEFAULT_HEAP_GROWTH_PERCENT}/${DEFAULT_MAX_CACHED_RUNS}`, `${DEFAULT_HEAP_GROWTH_PERCENT}/200`]
).map((c) => {
  const [heapGrowthPercent, maxCachedRuns] = c.split('/').map(Number) as [number, number];
  if (!Number.isInteger(heapGrowthPercent) || !Number.isInteger(maxCachedRuns)) throw new Error(`--config ${c}: expected GROWTH/CACHE`);
  return { heapGrowthPercent, maxCachedRuns };
});
const outDir = path.resolve(args.out ?? BENCH_DIR);
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const started = Date.now();
const log = (line: string) => process.stderr.write(`[heap-growth ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}\n`);

async function main(): Promise<void> {
  const tmpDir = mkdtempSync(path.join(tmpdir(), 'hitl-heap-growth-'));
  const model = await startModelServer({ script: benchScript(49) });
  const server = await startDevServer({
    forceStart: true,
    uiPort: false,
    port: await getPort(),
    namespace: 'default',
    dbFile: path.join(tmpDir, 'temporal.db'),
    progress: () => {},
  });
  const agentBundlePath = path.join(tmpDir, 'agent-workflows.js');
  writeFileSync(agentBundlePath, (await bundleWorkflows({ logger: quietLogger })).code);
  const { connection, client } = await connectClient(server);
  const env = { address: server.address, namespace: 'default', model, agentBundlePath, floorBundlePath: '' };
  const ctx = { ...env, server, connection, client, tmpDir, log } as unknown as BenchContext;
  try {
    const rows = [];
    const lines = [
      '| heap growth | cached runs | worker RSS before → all paused (peak) | runs paused per s | runs decided per s | rebuilt from history per decided run | completed |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ];
    log(`${runs} runs paused at once on one worker process, then decided (100 at a time), per configuration`);
    for (const { heapGrowthPercent, maxCachedRuns } of configurations) {
      const growth = heapGrowthPercent === 0 ? "V8's heuristic (0)" : `${heapGrowthPercent}%`;
      const label = `${growth}, cache ${maxCachedRuns}`;
      const worker = await startWorkerChild(env, {
        floor: false,
        record: false,
        heapGrowthPercent,
        overrides: { maxCachedWorkflows: maxCachedRuns },
      });
      const d = await measureDensity(ctx, { runs, concurrency: 100, worker, label });
      await worker.stop();
      rows.push({ heapGrowthPercent, maxCachedRuns, density: d });
      lines.push(
        `| ${growth} | ${maxCachedRuns} | ${mib(d.worker.baselineRssBytes)} → ${mib(
          d.worker.pausedRssBytes,
        )} MiB (${mib(d.worker.peakRssBytes)}) | ${round(d.runs / d.pauseSeconds, 1)} | ${round(d.drain.completionsPerSecond, 1)} | ${
          d.rebuilds?.perDecidedRun ?? 'n/a'
        } | ${round(d.completion * 100, 2)}% |`,
      );
      log(lines.at(-1)!);
    }
    const machine = machineDetails(server.cliPath, 'sqlite-file');
    const command = ['npm run bench:heap-growth', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
    writeFileSync(
      path.join(outDir, 'HEAP-GROWTH.md'),
      `# Heap growth and cache size of a worker deciding many paused runs

Generated by \`${command}\` on ${new Date(started).toISOString().slice(0, 10)}, in ${round((Date.now() - started) / 60_000, 1)} minutes (${machine.cpuModel}, ${machine.cores} cores, Node.js ${machine.node}).
Every figure is in [heap-growth.json](heap-growth.json). For each configuration a fresh worker process ran the density
scenario of \`npm run bench\` (bench/scenarios/density.ts): ${runs} runs paused at once, then all decided, 100 at a time.
The worker's RSS is sampled every second; "before" is after five warm-up runs. The dev server's dynamic config is
in the JSON. Heap growth is createWorker's \`heapGrowthPercent\` (V8's \`--heap-growing-percent\`; 0 is V8's own
heuristic, which lets a heap grow up to 4× what survived its last full collection); cached runs is
\`maxCachedWorkflows\`. "Rebuilt from history per decided run" counts the drain's workflow tasks that found their
run gone from the cache and replayed its history first (Core's \`sticky_cache_miss\`), per run: about 1 when only
the decision found its run evicted; more when the cache let runs go between their own tasks, because more runs were
in flight (deciding, then running the tool and calling the model) than it holds. The machine is shared: compare
rows, not absolute rates.

${lines.join('\n')}
`,
    );
    writeFileSync(
      path.join(outDir, 'heap-growth.json'),
      `${JSON.stringify({ command, runs, startedAt: new Date(started).toISOString(), machine, rows }, null, 2)}\n`,
    );
    log(`wrote ${path.relative(process.cwd(), path.join(outDir, 'HEAP-GROWTH.md'))}`);
  } finally {
    await connection.close();
    await model.close();
    await server.stop();
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

runCommand(main);
