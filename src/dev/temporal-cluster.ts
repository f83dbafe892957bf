/**
 * A real Temporal cluster on PostgreSQL, as processes on this machine: a throwaway PostgreSQL cluster
 * (src/dev/postgres.ts), the schema, namespace and search attributes set up by deploy/temporal-setup.sh (the
 * script docker-compose runs), and `temporal-server start` with deploy/temporal-server.yaml and
 * deploy/temporal-dynamic-config.yaml (the files docker-compose mounts). Everything lives in one temporary
 * directory owned by the caller and goes with `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import getPort, { portNumbers } from 'get-port';
import { SEARCH_ATTRIBUTE_KEYS } from '../contract/search-attributes.js';
import type { Progress } from './go-build.js';
import { startPostgres, type PostgresCluster } from './postgres.js';
import { ensureTemporalCli } from './temporal-cli.js';
import { ensureTemporalServer } from './temporal-server.js';

export const DEPLOY_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy');

export interface TemporalCluster {
  address: string;
  namespace: string;
  postgres: PostgresCluster;
  /** The server process. */
  pid: number;
  /** The server's log (stdout and stderr). */
  logFile: string;
  /** What deploy/temporal-setup.sh ran with (over the process's environment): run it again with runClusterSetup. */
  setupEnv: Record<string, string>;
  /** Stops the server, then PostgreSQL, and removes the directory. */
  stop(): Promise<void>;
}

export interface TemporalClusterOptions {
  /** @default 'default' */
  namespace?: string;
  progress?: Progress;
}

/** Runs deploy/temporal-setup.sh with the cluster's environment: its output, or a rejection with it. */
export function runClusterSetup(phase: 'schema' | 'namespace', setupEnv: Record<string, string>): Promise<string> {
  const env = { ...process.env, ...setupEnv };
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [path.join(DEPLOY_DIR, 'temporal-setup.sh'), phase], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve(output) : reject(new Error(`deploy/temporal-setup.sh ${phase} failed (${code ?? signal}):\n${output}`)),
    );
  });
}

export async function startTemporalCluster(options: TemporalClusterOptions = {}): Promise<TemporalCluster> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`[temporal-cluster] ${line}\n`));
  const namespace = options.namespace ?? 'default';
  const [binaries, cli] = await Promise.all([ensureTemporalServer(progress), ensureTemporalCli(progress)]);
  const dir = mkdtempSync(path.join(tmpdir(), 'hitl-cluster-'));
  let postgres: PostgresCluster | undefined;
  let server: ChildProcess | undefined;
  const killServer = () => server?.kill('SIGKILL');
  const cleanup = () => {
    process.removeListener('exit', killServer);
    killServer();
    postgres?.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    progress('PostgreSQL: initdb and start');
    postgres = await startPostgres({ dir });

    // The setup script calls the tools by name, as in the admin-tools image.
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(binaries.sqlTool, path.join(bin, 'temporal-sql-tool'));
    symlinkSync(cli.path, path.join(bin, 'temporal'));
    // Membership ports are stored as smallint in cluster_membership: below 32768, unlike most ephemeral ports.
    const memberPort = () => getPort({ port: portNumbers(20_000, 32_000) });
    const ports = {
      FRONTEND_GRPC_PORT: await getPort(),
      FRONTEND_HTTP_PORT: await getPort(),
      FRONTEND_MEMBERSHIP_PORT: await memberPort(),
      HISTORY_GRPC_PORT: await getPort(),
      HISTORY_MEMBERSHIP_PORT: await memberPort(),
      MATCHING_GRPC_PORT: await getPort(),
      MATCHING_MEMBERSHIP_PORT: await memberPort(),
      WORKER_GRPC_PORT: await getPort(),
      WORKER_MEMBERSHIP_PORT: await memberPort(),
    };
    const address = `127.0.0.1:${ports.FRONTEND_GRPC_PORT}`;
    const env: Record<string, string> = {
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      POSTGRES_SEEDS: postgres.host,
      DB_PORT: String(postgres.port),
      POSTGRES_USER: postgres.user,
      POSTGRES_PWD: postgres.password,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      PROMETHEUS_ENDPOINT: `127.0.0.1:${await getPort()}`,
      DYNAMIC_CONFIG_FILE_PATH: path.join(DEPLOY_DIR, 'temporal-dynamic-config.yaml'),
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
    };

    progress('schema: deploy/temporal-setup.sh schema');
    await runClusterSetup('schema', env);

    progress('temporal-server start');
    const logFile = path.join(dir, 'temporal-server.log');
    const log = openSync(logFile, 'a');
    server = spawn(binaries.server, ['--root', DEPLOY_DIR, '--config', '.', '--env', 'temporal-server', '--allow-no-auth', 'start'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const exited = new Promise<void>((resolve) => server!.once('exit', () => resolve()));
    process.on('exit', killServer);

    progress('namespace and search attributes: deploy/temporal-setup.sh namespace');
    const serverLog = () => readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    const died = exited.then(() => {
      throw new Error(`temporal-server exited during setup; its log ends:\n${serverLog()}`);
    });
    died.catch(() => {}); // Handled by the race below; a stop() after a good start must not reject anything.
    await Promise.race([runClusterSetup('namespace', env), died]);
    await waitForSearchAttributes(address, namespace);
    progress(`ready at ${address}`);

    return {
      address,
      namespace,
      postgres,
      pid: server.pid!,
      logFile,
      setupEnv: env,
      async stop() {
        if (server!.exitCode === null && server!.signalCode === null) {
          server!.kill('SIGTERM');
          const timer = setTimeout(() => server!.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(timer);
        }
        cleanup();
      },
    };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/** Search attributes reach the namespace's cache a moment after they are created; workers need them at once. */
async function waitForSearchAttributes(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      if (SEARCH_ATTRIBUTE_KEYS.every((key) => key.name in (customAttributes ?? {}))) return;
      if (Date.now() > deadline) throw new Error('the search attributes were not listed within 60 s');
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await connection.close();
  }
}
