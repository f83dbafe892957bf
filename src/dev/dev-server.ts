/**
 * Starts `temporal server start-dev` with the project's search attributes, waits until it answers, and stops it
 * cleanly. When `TEMPORAL_ADDRESS` is set, that server is used and nothing is started. The server runs under a small
 * supervisor (src/dev/dev-server-supervisor.mjs) that stops it when this process dies, even by SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import getPort from 'get-port';
import { searchAttributeCliPairs } from '../contract/search-attributes.js';
import { DEV_SERVER_DYNAMIC_CONFIG } from './server-dynamic-config.js';
import { ensureTemporalCli, type CliSource, type Progress } from './temporal-cli.js';

/** The settings we change from Temporal's defaults (src/dev/server-dynamic-config.ts). */
export { DEV_SERVER_DYNAMIC_CONFIG };

export interface DevServerOptions {
  /** SQLite file for persistent state; in memory when omitted. */
  dbFile?: string;
  /**
   * SQLite pragmas for that file (`--sqlite-pragma KEY=VALUE`), e.g. `{ synchronous: 'off' }` for throwaway state.
   * Only with dbFile.
   */
  sqlitePragmas?: Record<string, string>;
  /** gRPC port; a free one when omitted. */
  port?: number;
  /** Web UI port; `false` runs headless. @default a free port */
  uiPort?: number | false;
  /** @default 'default' */
  namespace?: string;
  /** Remote codec endpoint the Web UI calls to decode payloads. */
  uiCodecEndpoint?: string;
  /** Server dynamic config (`--dynamic-config-value KEY=VALUE`, the value JSON-encoded), over DEV_SERVER_DYNAMIC_CONFIG. */
  dynamicConfig?: Record<string, string | number | boolean>;
  /** Ignore `TEMPORAL_ADDRESS` and always start a server (tests that kill the server need their own). */
  forceStart?: boolean;
  /**
   * Stop the server on SIGINT/SIGTERM/SIGHUP. Entry points that must drain a worker before the server goes
   * (`npm start`) pass false and stop it themselves.
   * @default true
   */
  handleSignals?: boolean;
  progress?: Progress;
}

export interface DevServer {
  address: string;
  namespace: string;
  /** Web UI base URL, when this harness started a server with a UI. */
  uiUrl?: string;
  /** The `temporal` binary, for tests and tools that shell out to it. */
  cliPath?: string;
  /** Where that binary was found: only our own build carries the newer SQLite driver (temporal-cli.ts). */
  cliSource?: CliSource;
  /** The server's output, kept beside dbFile when there is one (else it is read from a pipe). */
  logFile?: string;
  /** Whether this harness started the server (false when `TEMPORAL_ADDRESS` was used). */
  owned: boolean;
  /** The server process's (not its supervisor's): the one that holds the ports and the database. */
  pid?: number;
  /** Settles when the server this harness started exits, by stop() or not (absent when it started none). */
  exited?: Promise<ServerExit>;
  stop(): Promise<void>;
  /** Kills the server without a clean shutdown (fault-injection tests). */
  kill(): Promise<void>;
}

/** How a started server ended: its exit code, or the signal that ended it. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const SUPERVISOR = fileURLToPath(new URL('./dev-server-supervisor.mjs', import.meta.url));

/** Each supervisor this process started and is running, with its server's pid once it is known. */
const live = new Map<ChildProcess, number | undefined>();
let exitHookInstalled = false;
let signalHooksInstalled = false;

/** A test failure or an exception ends in `exit`: never leave a server behind. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [child, serverPid] of live) {
      // The supervisor would stop its server when this process is gone, but gently; this does it at once.
      if (serverPid !== undefined) killQuietly(serverPid, 'SIGKILL');
      child.kill('SIGKILL');
    }
  });
}

/**
 * Ctrl-C reaches the server too (same process group), but a SIGTERM sent to this process alone would not: stop
 * the servers, then let the signal do what it would have done.
 */
function installSignalHooks(): void {
  if (signalHooksInstalled) return;
  signalHooksInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      for (const child of live.keys()) child.kill('SIGTERM');
      process.removeListener(signal, onSignal);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** The server at TEMPORAL_ADDRESS, used instead of starting one unless forceStart. */
export function externalAddress(options: Pick<DevServerOptions, 'forceStart'> = {}): string | undefined {
  return (!options.forceStart && process.env.TEMPORAL_ADDRESS) || undefined;
}

export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  // Pragmas are chosen for a state file (WAL, synchronous=off); without one, the caller meant a file it did not name.
  if (options.sqlitePragmas && !options.dbFile) throw new Error('startDevServer: sqlitePragmas needs a dbFile to apply to');
  const namespace = options.namespace ?? process.env.TEMPORAL_NAMESPACE ?? 'default';
  const external = externalAddress(options);
  if (external) {
    await waitUntilServing(external, namespace, 30_000);
    return { address: external, namespace, owned: false, stop: async () => {}, kill: async () => {} };
  }

  const progress = options.progress ?? ((line: string) => process.stderr.write(`[dev-server] ${line}\n`));
  const cli = await ensureTemporalCli(progress);
  const port = options.port ?? (await getPort());
  const uiPort = options.uiPort === false ? undefined : (options.uiPort ?? (await getPort()));
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error'];
  args.push('--namespace', namespace);
  for (const pair of searchAttributeCliPairs()) args.push('--search-attribute', pair);
  if (uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(uiPort));
  if (options.uiCodecEndpoint) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  for (const [key, value] of Object.entries({ ...DEV_SERVER_DYNAMIC_CONFIG, ...options.dynamicConfig })) {
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  if (options.dbFile) {
    mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  for (const [pragma, value] of Object.entries(options.sqlitePragmas ?? {})) args.push('--sqlite-pragma', `${pragma}=${value}`);

  installExitHook();
  if (options.handleSignals !== false) installSignalHooks();
  // The OTEL_* variables configure our tracing; the server reads them too and refuses exporters it lacks (console).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  // A server with a state file may outlive the npm start that started it (by seconds, while its supervisor stops it;
  // for good, should the supervisor be killed too, till the next start stops it), so its log goes to a file beside
  // the state: a pipe to a dead parent would kill it (SIGPIPE) at its next error line, its database left unclosed.
  const logFile = options.dbFile ? path.join(path.dirname(options.dbFile), 'dev-server.log') : undefined;
  const logFd = logFile ? openSync(logFile, 'a') : undefined;
  // The IPC channel is the supervisor's line to this process: it closes when this process dies, however it dies.
  const child = spawn(process.execPath, [SUPERVISOR, cli.path, ...args], { stdio: ['ignore', 'ignore', logFd ?? 'pipe', 'ipc'], env });
  if (logFd !== undefined) closeSync(logFd);
  live.set(child, undefined);
  const serverPid = new Promise<number>((resolve) => {
    const onMessage = (message: unknown) => {
      const pid = (message as { serverPid?: unknown } | null)?.serverPid;
      if (typeof pid !== 'number') return;
      child.off('message', onMessage);
      if (live.has(child)) live.set(child, pid);
      resolve(pid);
    };
    child.on('message', onMessage);
  });
  let piped = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    piped = (piped + chunk.toString()).slice(-4000);
  });
  const stderrTail = () => (logFile ? readFileSync(logFile, 'utf8').slice(-4000) : piped);
  const exited = new Promise<ServerExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  exited.then(() => live.delete(child));

  const address = `127.0.0.1:${port}`;
  let pid: number;
  try {
    [pid] = await Promise.race([
      Promise.all([serverPid, waitUntilServing(address, namespace, 60_000)]),
      exited.then(({ code, signal }) => {
        throw new Error(`temporal server start-dev exited with ${signal ?? code} before it was ready:\n${stderrTail()}`);
      }),
    ]);
  } catch (err) {
    const known = live.get(child);
    if (known !== undefined) killQuietly(known, 'SIGKILL');
    child.kill(known === undefined ? 'SIGTERM' : 'SIGKILL');
    throw err;
  }

  const running = () => child.exitCode === null && child.signalCode === null;
  // SIGTERM goes through the supervisor, which passes it on; SIGKILL goes to the server itself (the supervisor
  // cannot pass on a SIGKILL of its own), and the supervisor then ends by the same signal.
  const signalServer = (signal: NodeJS.Signals) => {
    if (!running()) return;
    if (signal === 'SIGKILL') killQuietly(pid, signal);
    else child.kill(signal);
  };
  const stopWith = async (signal: NodeJS.Signals) => {
    if (!running()) return;
    signalServer(signal);
    const timer = setTimeout(() => signalServer('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    address,
    namespace,
    uiUrl: uiPort === undefined ? undefined : `http://localhost:${uiPort}`,
    cliPath: cli.path,
    cliSource: cli.source,
    logFile,
    owned: true,
    pid,
    exited,
    stop: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
  };
}

/** A signal to a process that may have ended meanwhile. */
function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

/** Ready means the frontend answers and the namespace exists: workers and clients can start at once. */
async function waitUntilServing(address: string, namespace: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.describeNamespace({ namespace });
      return;
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await connection?.close().catch(() => {});
    }
  }
  throw new Error(`Temporal at ${address} was not ready within ${timeoutMs / 1000}s: ${String(lastError)}`);
}
