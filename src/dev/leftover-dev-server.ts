/**
 * `npm start` records the dev server it starts, and itself, in the state directory. When its node process is
 * killed without a chance to stop the server (SIGKILL, a crash), the server's supervisor stops it
 * (src/dev/dev-server-supervisor.mjs). When the supervisor is killed too (a SIGKILL to the whole process group), the
 * server keeps running and holds the ports and the database; the next `npm start` stops that leftover first. It only ever stops the very
 * process it recorded: same pid, same start time, same command line. A pid the system has since given to another
 * process is left alone, and so is a server whose `npm start` is still running.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { StateDirInUseError } from '../errors.js';

/** What tells one process from any other that gets its pid later. */
const ProcessIdentity = z.object({ pid: z.number().int().positive(), started: z.string().min(1), command: z.string().min(1) });
type ProcessIdentity = z.infer<typeof ProcessIdentity>;

const ServerRecord = z.object({ server: ProcessIdentity, owner: ProcessIdentity, address: z.string() });
type ServerRecord = z.infer<typeof ServerRecord>;

const RECORD_FILE = 'dev-server.json';

/**
 * The fields of a process's /proc/<pid>/stat after its name (which may hold spaces and parens): the state (field 3;
 * Z is a zombie: dead, not yet reaped), the parent's pid (field 4), …, the start time in clock ticks since boot (field
 * 22). Undefined where there is no /proc, or no such process.
 */
export function procStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A process's start time and command line, from /proc on Linux and `ps` elsewhere; undefined when it is gone. */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  try {
    if (existsSync('/proc/self/stat')) {
      const fields = procStatFields(pid);
      if (!fields || fields[0] === 'Z') return undefined;
      const started = fields[19];
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      return started && command ? { pid, started, command } : undefined;
    }
    const [started, command] = ['lstart=', 'command='].map((field) =>
      execFileSync('ps', ['-o', field, '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    return started && command ? { pid, started, command } : undefined;
  } catch {
    return undefined;
  }
}

/** The very process recorded is still running (not another that got its pid since). */
export const isAlive = (recorded: ProcessIdentity): boolean => {
  const now = processIdentity(recorded.pid);
  return now !== undefined && now.started === recorded.started && now.command === recorded.command;
};

/** Remembers the dev server this process started. */
export function recordDevServer(stateDir: string, serverPid: number, address: string): void {
  const server = processIdentity(serverPid);
  const owner = processIdentity(process.pid);
  if (!server || !owner) return;
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(path.join(stateDir, RECORD_FILE), JSON.stringify({ server, owner, address } satisfies ServerRecord, null, 2));
}

/** The server was stopped cleanly: nothing is left to clean up. */
export function forgetDevServer(stateDir: string): void {
  rmSync(path.join(stateDir, RECORD_FILE), { force: true });
}

/**
 * Stops the dev server an earlier `npm start` with this state directory left running, if it is still that very
 * process; SIGTERM first (the server closes its database), SIGKILL after `graceMs`. Returns the pid it stopped.
 */
export async function stopLeftoverDevServer(stateDir: string, options: { graceMs?: number } = {}): Promise<number | undefined> {
  const file = path.join(stateDir, RECORD_FILE);
  if (!existsSync(file)) return undefined;
  let record: ServerRecord;
  try {
    record = ServerRecord.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    forgetDevServer(stateDir);
    return undefined;
  }
  if (isAlive(record.owner)) throw new StateDirInUseError(record.owner.pid, stateDir);
  if (!isAlive(record.server)) {
    forgetDevServer(stateDir);
    return undefined;
  }
  process.kill(record.server.pid, 'SIGTERM');
  const deadline = Date.now() + (options.graceMs ?? 10_000);
  while (isAlive(record.server) && Date.now() < deadline) await sleep(100);
  if (isAlive(record.server)) process.kill(record.server.pid, 'SIGKILL');
  for (let i = 0; i < 50 && isAlive(record.server); i++) await sleep(100);
  forgetDevServer(stateDir);
  return record.server.pid;
}
