/** Messages between the runner and its child processes (worker, LangGraph peer), over Node's IPC channel. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

/**
 * The wall clock in milliseconds with a fraction, for the latency spans that cross processes (runner, worker, peer).
 * `Date.now()` ticks in whole milliseconds, which at spans of 10–20 ms moves a p50 ratio by up to a tenth. Each
 * process anchors its monotonic clock to the wall clock once, when it starts (`performance.timeOrigin`), so two
 * processes agree as closely as the wall clock did at their starts; both run on one machine.
 */
export function markNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Activity timestamps taken inside the worker (an activity interceptor): start and end of each execution. */
export interface ActivityMark {
  activity: string;
  phase: 'start' | 'end';
  at: number;
}

export type ChildRequest = { id: number; cmd: string; [key: string]: unknown };
export type ChildReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface BenchChild {
  pid: number;
  /** Resolves when the process exits, for whatever reason. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  request<T>(cmd: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Asks the child to stop, and kills it if it does not within the timeout. */
  stop(): Promise<void>;
}

/** Spawns `node --import tsx <script>` with an IPC channel and waits for its `ready` message. */
export async function spawnChild(
  script: string,
  env: Record<string, string>,
  options: { nodeArgs?: string[]; readyTimeoutMs?: number } = {},
): Promise<BenchChild> {
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  exited.then(() => {
    for (const w of waiting.values())
      w.reject(new Error(`${path.basename(script)} exited (code ${child.exitCode}, signal ${child.signalCode})`));
    waiting.clear();
  });
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${path.basename(script)} was not ready in time`)), options.readyTimeoutMs ?? 120_000);
    child.on('message', (raw) => {
      const message = raw as { ready?: true; error?: string } & Partial<ChildReply>;
      if (message.ready) {
        clearTimeout(timer);
        resolve();
        return;
      }
      if (message.id === undefined) return;
      const w = waiting.get(message.id);
      if (!w) return;
      waiting.delete(message.id);
      if (message.ok) w.resolve(message.value);
      else w.reject(new Error(message.error));
    });
    exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(script)} exited before it was ready (code ${child.exitCode})`));
    });
  });
  await ready;
  return {
    pid: child.pid!,
    exited,
    request<T>(cmd: string, args: Record<string, unknown> = {}, timeoutMs = 30 * 60_000): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`${path.basename(script)}: ${cmd} timed out`));
        }, timeoutMs);
        waiting.set(id, {
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v as T);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        child.send({ id, cmd, ...args } satisfies ChildRequest);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ id: 0, cmd: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The child's side: answer requests with the handlers; `stop` runs `onStop` and exits. */
/**
 * Call first in a child: it exits when its runner is gone (the IPC channel closes with it), as when the runner gave
 * up because another child failed to start. Otherwise a worker process left waiting for a server that had died held
 * on, and could take ports and a core from the next run.
 */
export function exitWithParent(): void {
  process.once('disconnect', () => process.exit(0));
}

export function serveParent(
  handlers: Record<string, (req: ChildRequest) => Promise<unknown> | unknown>,
  onStop: () => Promise<void>,
): void {
  process.on('message', async (raw) => {
    const req = raw as ChildRequest;
    if (req.cmd === 'stop') {
      await onStop().catch((err) => console.error(err));
      process.disconnect?.();
      process.exit(0);
    }
    const handler = handlers[req.cmd];
    try {
      if (!handler) throw new Error(`unknown command ${req.cmd}`);
      const value = await handler(req);
      process.send!({ id: req.id, ok: true, value } satisfies ChildReply);
    } catch (err) {
      process.send!({ id: req.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies ChildReply);
    }
  });
  // The runner died: don't linger.
  process.on('disconnect', () => {
    void onStop().finally(() => process.exit(0));
  });
  process.send!({ ready: true });
}

/** Resident set size of a process in bytes (`VmRSS` in /proc/<pid>/status). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}

let clockTicks: number | undefined;

/** `/proc/<pid>/stat` from field 3 (state) on: the command name before it may contain spaces. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The parent of a process (field 4 of `/proc/<pid>/stat`). */
export function parentPidOf(pid: number): number {
  return Number(statFields(pid)[1]);
}

/**
 * CPU time (user + system) a process has used so far, in milliseconds (`/proc/<pid>/stat`, clock-tick resolution).
 * `reapedChildren`: plus that of its children that have exited and been waited for (a server that forks workers).
 */
export function cpuMsOf(pid: number, options: { reapedChildren?: boolean } = {}): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, cutime and cstime (waited-for children) 16 and 17.
  const fields = statFields(pid);
  const ticks = [11, 12, ...(options.reapedChildren ? [13, 14] : [])].reduce((n, i) => n + Number(fields[i]), 0);
  return (ticks * 1000) / clockTicks;
}
