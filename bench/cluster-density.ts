/**
 * `npm run bench:cluster-density` — the density scenario of `npm run bench` (bench/scenarios/density.ts) on a real
 * Temporal cluster on PostgreSQL (src/dev/temporal-cluster.ts: the server and deploy/ files docker-compose runs),
 * instead of the dev server: N runs paused at once on one worker process, then all decided. Besides the worker's
 * memory it measures what a self-hosted cluster pays per paused run: PostgreSQL's bytes (both databases) and the CPU of
 * the Temporal server and PostgreSQL's processes together. Writes bench/CLUSTER-DENSITY.md and cluster-density.json.
 *
 *   npm run bench:cluster-density                 # 50,000 runs (hours on a 2-core machine: see the figures it writes)
 *   options: --runs N  --concurrency N (starts and decisions in flight; 100)  --out DIR  --render-only
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { PostgresHandle } from '../src/dev/postgres.js';
import { startTemporalCluster } from '../src/dev/temporal-cluster.js';
import { ensureTemporalCli } from '../src/dev/temporal-cli.js';
import { TEMPORAL_SERVER_VERSION } from '../src/dev/temporal-server.js';
import { startModelServer } from '../src/model-server/server.js';
import { bundleWorkflows } from '../src/workflow-bundle.js';
import { benchScript } from './bench-agent.js';
import { runCommand } from './command.js';
import { connectClient, startWorkerChild, type BenchContext } from './context.js';
import { quietLogger } from './experiments.js';
import { BENCH_DIR, cpuMsOf, parentPidOf } from './ipc.js';
import { machineDetails } from './machine.js';
import { densityTable } from './report-sections.js';
import { measureDensity } from './scenarios/density.js';
import { ClusterDensityResults } from './schema.js';
import { round } from './stats.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '50000' },
    concurrency: { type: 'string', default: '100' },
    out: { type: 'string' },
    /** CLUSTER-DENSITY.md again from cluster-density.json (after a change to its wording); measures nothing. */
    'render-only': { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const concurrency = Number(args.concurrency);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(concurrency) || concurrency < 1)
  throw new Error('--runs and --concurrency take positive integers');
const outDir = path.resolve(args.out ?? BENCH_DIR);
const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`[cluster-density ${((Date.now() - started) / 1000).toFixed(0).padStart(5)}s] ${line}\n`);

/** The PostgreSQL server process: postmaster.pid's first line. */
function postmasterPid(postgres: PostgresHandle): number {
  return Number(readFileSync(path.join(postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** The processes the PostgreSQL server forked that are still running: its backends, autovacuum workers, helpers. */
function liveChildren(postmaster: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return parentPidOf(Number(pid)) === postmaster;
      } catch {
        return false; // Exited while we looked.
      }
    })
    .map(Number);
}

/**
 * CPU the Temporal server and PostgreSQL have used so far: the server's process, PostgreSQL's server process with
 * the children it has reaped (an autovacuum worker or a backend that ended), and its children still running.
 */
function serverCpu(temporalPid: number, postgres: PostgresHandle): () => number {
  const postmaster = postmasterPid(postgres);
  return () =>
    cpuMsOf(temporalPid) +
    cpuMsOf(postmaster, { reapedChildren: true }) +
    liveChildren(postmaster).reduce((ms, pid) => {
      try {
        return ms + cpuMsOf(pid);
      } catch {
        return ms; // Exited since it was listed: its time counts from the next sample on, as a reaped child's.
      }
    }, 0);
}

/** pg_database_size of the history and visibility databases deploy/temporal-setup.sh creates. */
function postgresBytes(postgres: PostgresHandle): number {
  const sql = "SELECT sum(pg_database_size(datname)) FROM pg_database WHERE datname IN ('temporal', 'temporal_visibility')";
  const out = execFileSync(
    path.join(postgres.bin, 'psql'),
    ['-h', postgres.host, '-p', String(postgres.port), '-U', postgres.user, '-d', 'temporal', '-Atc', sql],
    { encoding: 'utf8', env: { ...process.env, PGPASSWORD: postgres.password } },
  );
  return Number(out.trim());
}

function clusterDensityReport(c: ClusterDensityResults): string {
  const { machine, storage, density } = c;
  const kib = (bytes: number) => `${round(bytes / 1024, 1)} KiB`;
  const mib = (bytes: number) => `${round(bytes / 2 ** 20, 0)} MiB`;
  return `# Density on a Temporal cluster on PostgreSQL: ${density.runs.toLocaleString('en-US')} runs paused at once

Generated by \`${c.command}\` on ${c.startedAt.slice(0, 10)}, in ${round(c.durationSeconds / 60, 1)} minutes (${machine.cpuModel}, ${machine.cores} cores, Node.js ${machine.node}).
Every figure is in [cluster-density.json](cluster-density.json). This is section 3 of [RESULTS.md](RESULTS.md) (the same
scenario, bench/scenarios/density.ts) on Temporal server v${c.temporalServer} with PostgreSQL, as
docker-compose.yml runs them (deploy/temporal-server.yaml, deploy/temporal-dynamic-config.yaml, 4 history shards),
started as processes on the same machine as the worker. One worker process with \`createWorker\`'s defaults; runs
started and then decided ${density.drain.concurrency} at a time. The server's CPU is the Temporal server's process and PostgreSQL's
processes together; its RSS is the Temporal server's alone. The machine is shared and has two cores for all of it.

${densityTable(density, { name: 'Temporal server', cpu: 'Temporal server and PostgreSQL', storage: 'PostgreSQL, all runs paused (both databases)' })}

PostgreSQL's two databases (\`pg_database_size\`, history and visibility) held ${mib(storage.emptyBytes)} before the first run,
${mib(storage.pausedBytes)} with every run paused, and ${mib(storage.drainedBytes)} once all had completed (Temporal keeps a closed run's
history for the namespace's retention: 72 hours, deploy/temporal-setup.sh's default): **${kib(storage.perPausedRunBytes)} per paused run**,
${kib(storage.perCompletedRunBytes)} per completed run.
`;
}

async function main(): Promise<void> {
  const tmpDir = mkdtempSync(path.join(tmpdir(), 'hitl-cluster-density-'));
  const [cluster, model, bundle] = await Promise.all([
    startTemporalCluster({ progress: log }),
    startModelServer({ script: benchScript(49) }),
    bundleWorkflows({ logger: quietLogger }),
  ]);
  const agentBundlePath = path.join(tmpDir, 'agent-workflows.js');
  writeFileSync(agentBundlePath, bundle.code);
  const { connection, client } = await connectClient(cluster);
  const env = { address: cluster.address, namespace: cluster.namespace, model, agentBundlePath, floorBundlePath: '' };
  // measureDensity samples the RSS of ctx.server's process: the Temporal server (PostgreSQL's memory is its own).
  const ctx = { ...env, server: { pid: cluster.pid }, connection, client, tmpDir, log } as unknown as BenchContext;
  try {
    const emptyBytes = postgresBytes(cluster.postgres);
    const serverCpuMs = serverCpu(cluster.pid, cluster.postgres);
    const worker = await startWorkerChild(env, { floor: false, record: false });
    log(`${runs} runs paused at once on one worker process, then decided (${concurrency} at a time)`);
    const density = await measureDensity(ctx, {
      runs,
      concurrency,
      worker,
      serverCpuMs,
      storageBytes: async () => postgresBytes(cluster.postgres),
    });
    const pausedBytes = density.devServer.dbFileBytes;
    if (pausedBytes === undefined) throw new Error("the density scenario did not read PostgreSQL's bytes");
    const drainedBytes = postgresBytes(cluster.postgres);
    const command = ['npm run bench:cluster-density', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
    const results = ClusterDensityResults.parse({
      command,
      startedAt: new Date(started).toISOString(),
      durationSeconds: round((Date.now() - started) / 1000, 1),
      machine: machineDetails((await ensureTemporalCli(() => {})).path, 'postgresql'),
      temporalServer: TEMPORAL_SERVER_VERSION,
      storage: {
        emptyBytes,
        pausedBytes,
        drainedBytes,
        perPausedRunBytes: Math.round((pausedBytes - emptyBytes) / runs),
        perCompletedRunBytes: Math.round((drainedBytes - emptyBytes) / runs),
      },
      density,
    });
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path.join(outDir, 'CLUSTER-DENSITY.md'), clusterDensityReport(results));
    writeFileSync(path.join(outDir, 'cluster-density.json'), `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${path.relative(process.cwd(), path.join(outDir, 'CLUSTER-DENSITY.md'))}`);
  } finally {
    await connection.close();
    await model.close();
    await cluster.stop();
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

function renderOnly(): void {
  const results = ClusterDensityResults.parse(JSON.parse(readFileSync(path.join(outDir, 'cluster-density.json'), 'utf8')));
  writeFileSync(path.join(outDir, 'CLUSTER-DENSITY.md'), clusterDensityReport(results));
  log(`re-rendered ${path.relative(process.cwd(), path.join(outDir, 'CLUSTER-DENSITY.md'))} from cluster-density.json`);
}

runCommand(args['render-only'] ? async () => renderOnly() : main, { measures: !args['render-only'] });
