/**
 * Real `npm start` processes, as a user runs them: each in its own process group (a terminal's foreground job),
 * on free ports, with its state and data in a directory of the test's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import path from 'node:path';
import getPort from 'get-port';

export interface Ports {
  grpc: number;
  ui: number;
  api: number;
}

/**
 * Ports an `npm start` binds many seconds after they were found free. Linux hands out ports of its ephemeral range
 * (32768–60999 by default) to every outgoing connection, and the suite opens many: a port of that range found free
 * may be a connection's by the time npm start binds it. Below the range, only listeners take ports; candidates are
 * drawn at random, so two test processes asking at once do not both get the first free ports of the range.
 */
export async function freePorts(): Promise<Ports> {
  const take = () => getPort({ port: Array.from({ length: 100 }, () => 20_000 + Math.floor(Math.random() * 12_000)) });
  return { grpc: await take(), ui: await take(), api: await take() };
}

/** A user's environment for `npm start` and the commands they run beside it: no Temporal, model or secrets set. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['TEMPORAL_ADDRESS', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'HITL_API_TOKENS', 'HITL_ENCRYPTION_KEYS']) delete env[name];
  return env;
}

export interface NpmStart {
  child: ChildProcess;
  output(): string;
  /** The finance approver's dev token, as the banner prints it. */
  token: string;
}

/** Every `npm start` still running, so a test's afterAll can kill what a failed test left. */
export const running = new Set<ChildProcess>();

/** Runs `npm start` with its state under `dir` until its banner is out. */
export async function npmStart(dir: string, ports: Ports): Promise<NpmStart> {
  const env = userEnv({
    HITL_STATE_DIR: path.join(dir, 'state'),
    HITL_DATA_DIR: path.join(dir, 'data'),
    HITL_DEV_SERVER_PORT: String(ports.grpc),
    HITL_DEV_UI_PORT: String(ports.ui),
    HITL_API_PORT: String(ports.api),
  });
  const child = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let output = '';
  const banner = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no npm start banner within 120 s; it printed:\n${output}`)), 120_000);
    const onData = (d: Buffer) => {
      output += d;
      if (!output.includes('Ctrl-C stops everything.')) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    // A start that fails says why and exits: the test fails at once, with what it said.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      reject(new Error(`npm start exited (${signal ?? code}) before its banner; it printed:\n${output}`));
    });
  });
  await banner;
  const token = /alice \(finance\): (\S+)/.exec(output)![1]!;
  return { child, output: () => output, token };
}

/**
 * Ctrl-C in a terminal signals the whole foreground process group: npm, its shell and node alike. Done means every
 * process holding the output has closed it (npm itself may exit first).
 */
export async function ctrlC(child: ChildProcess): Promise<void> {
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  process.kill(-child.pid!, 'SIGINT');
  await closed;
  running.delete(child);
}

export function killAll(): void {
  for (const child of running) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Its process group is gone already (it exited, or a test killed it).
    }
  }
  running.clear();
}

export const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
