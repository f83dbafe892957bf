/**
 * A throwaway PostgreSQL cluster for the `cluster` test suite: initdb in a directory of its own, a free port on
 * 127.0.0.1, and pg_ctl to start, restart (also as a crash: immediate mode) and stop it. It never touches a
 * system-wide cluster. PostgreSQL comes from the OS (Debian: `apt-get install postgresql`); as root, the server
 * runs as the `postgres` user the package creates, since PostgreSQL refuses to run as root.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import getPort from 'get-port';
import { PostgresNotFoundError } from './setup-errors.js';
import { exeName, findOnPath, isExecutable } from './go-build.js';

export interface PostgresOptions {
  /** Directory that will hold the data directory, the socket and the log; it must exist. */
  dir: string;
  /** @default 'temporal' */
  user?: string;
  /** @default 'temporal' */
  password?: string;
}

/** A running cluster, as plain data: any process can restart it (a test file gets it through vitest's inject). */
export interface PostgresHandle {
  host: '127.0.0.1';
  port: number;
  user: string;
  password: string;
  dataDir: string;
  logFile: string;
  /** initdb and pg_ctl. */
  bin: string;
  /** The options `postgres` starts with (port, listen address, socket directory). */
  serverOptions: string;
  /** The user the server runs as, when this process is root. */
  owner?: { uid: number; gid: number };
}

export interface PostgresCluster extends PostgresHandle {
  /** Stops it (if running) and removes its directory. */
  destroy(): void;
}

function runTool(handle: Pick<PostgresHandle, 'bin' | 'owner'>, tool: string, args: string[]): void {
  const result = spawnSync(path.join(handle.bin, tool), args, {
    encoding: 'utf8',
    ...(handle.owner && { uid: handle.owner.uid, gid: handle.owner.gid }),
    env: { ...process.env, LC_ALL: 'C' },
  });
  if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${result.status}):\n${result.stderr}${result.stdout}`);
}

function pgCtl(handle: PostgresHandle, action: 'start' | 'stop', mode: 'fast' | 'immediate' = 'fast'): void {
  if (action === 'start')
    runTool(handle, 'pg_ctl', ['-D', handle.dataDir, '-l', handle.logFile, '-o', handle.serverOptions, '-w', '-t', '60', 'start']);
  else runTool(handle, 'pg_ctl', ['-D', handle.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
}

/**
 * Stops and starts the cluster again on the same port. `immediate` stops it the way a crash would (the server
 * processes quit without a checkpoint, open connections break), so it recovers from its WAL on start.
 */
export function restartPostgres(handle: PostgresHandle, mode: 'fast' | 'immediate'): void {
  pgCtl(handle, 'stop', mode);
  pgCtl(handle, 'start');
}

/** The directory holding initdb and pg_ctl: `initdb` on PATH, else the newest /usr/lib/postgresql/N/bin. */
export function findPostgresBin(): string {
  const onPath = findOnPath(exeName('initdb'));
  if (onPath && isExecutable(path.join(path.dirname(realpathSync(onPath)), 'pg_ctl'))) return path.dirname(realpathSync(onPath));
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => isExecutable(path.join(debian, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(debian, versions[0], 'bin');
  throw new PostgresNotFoundError();
}

/** As root, the `postgres` user's ids; otherwise the process's own (undefined: no switch). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new PostgresNotFoundError('running as root, and there is no `postgres` user to run PostgreSQL as');
  }
}

export async function startPostgres(options: PostgresOptions): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  const user = options.user ?? 'temporal';
  const password = options.password ?? 'temporal';
  const owner = serverUser();
  const root = path.join(options.dir, 'postgres');
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'postgres.log');
  mkdirSync(root, { recursive: true });
  const passwordFile = path.join(root, 'password');
  writeFileSync(passwordFile, password, { mode: 0o600 });
  if (owner) {
    // The postgres user must be able to reach the directory, and own what it writes.
    for (let dir = root; dir !== path.dirname(dir) && dir !== path.dirname(options.dir); dir = path.dirname(dir)) {
      execFileSync('chmod', ['o+x', dir]);
    }
    chownSync(root, owner.uid, owner.gid);
    chownSync(passwordFile, owner.uid, owner.gid);
  }
  runTool({ bin, owner }, 'initdb', [
    '-D',
    dataDir,
    '-U',
    user,
    '--pwfile',
    passwordFile,
    '-A',
    'scram-sha-256',
    '-E',
    'UTF8',
    '--no-instructions',
  ]);
  rmSync(passwordFile);
  const port = await getPort();
  const handle: PostgresHandle = {
    host: '127.0.0.1',
    port,
    user,
    password,
    dataDir,
    logFile,
    bin,
    // Only loopback TCP and a socket inside our own directory: nothing shared with another cluster on the machine.
    serverOptions: `-p ${port} -c listen_addresses=127.0.0.1 -k ${root} -c max_connections=200`,
    ...(owner && { owner }),
  };
  pgCtl(handle, 'start');

  let destroyed = false;
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    process.removeListener('exit', destroy);
    if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
      try {
        pgCtl(handle, 'stop', 'immediate');
      } catch {
        // Already stopped; the directory goes anyway.
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  // A test run that ends, however it ends, leaves no PostgreSQL behind.
  process.on('exit', destroy);
  return { ...handle, destroy };
}
