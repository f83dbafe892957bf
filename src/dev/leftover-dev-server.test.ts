/**
 * What `npm start` may stop: only the very process it recorded, and only when the `npm start` that recorded it
 * is gone. Stand-ins are `sleep` processes: one recorded as it is (stopped), one under a pid whose process is not
 * the one recorded (left alone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StateDirInUseError } from '../errors.js';
import { processIdentity, recordDevServer, stopLeftoverDevServer } from './leftover-dev-server.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hitl-leftover-'));
  dirs.push(dir);
  return dir;
}

function sleeper(): ChildProcess & { pid: number } {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  children.push(child);
  return child as ChildProcess & { pid: number };
}

/** A record as an npm start that has since died would have left it. */
function writeRecord(dir: string, server: unknown): void {
  const deadOwner = { pid: 2 ** 22 + 1, started: '1', command: 'node src/start.ts' };
  writeFileSync(path.join(dir, 'dev-server.json'), JSON.stringify({ server, owner: deadOwner, address: '127.0.0.1:7233' }));
}

describe('a dev server an earlier npm start left running', () => {
  it('is stopped when it is the very process recorded and its npm start is gone', async () => {
    const dir = stateDir();
    const leftover = sleeper();
    const exited = new Promise((resolve) => leftover.once('exit', (_code, signal) => resolve(signal)));
    writeRecord(dir, processIdentity(leftover.pid));
    expect(await stopLeftoverDevServer(dir)).toBe(leftover.pid);
    expect(await exited).toBe('SIGTERM');
    expect(await stopLeftoverDevServer(dir)).toBeUndefined();
  });

  it('is left alone when its pid now belongs to another process, or its command or start time differ', async () => {
    const dir = stateDir();
    const other = sleeper();
    const identity = processIdentity(other.pid)!;
    for (const recorded of [
      { ...identity, command: 'temporal server start-dev --port 7233' },
      { ...identity, started: `${identity.started}0` },
    ]) {
      writeRecord(dir, recorded);
      expect(await stopLeftoverDevServer(dir)).toBeUndefined();
      expect(processIdentity(other.pid)).toEqual(identity);
    }
  });

  it('is left alone while the npm start that recorded it still runs, and that is said plainly', async () => {
    const dir = stateDir();
    const server = sleeper();
    // This process plays the npm start that is still running.
    recordDevServer(dir, server.pid, '127.0.0.1:7233');
    expect(JSON.parse(readFileSync(path.join(dir, 'dev-server.json'), 'utf8')).owner.pid).toBe(process.pid);
    await expect(stopLeftoverDevServer(dir)).rejects.toThrow(StateDirInUseError);
    await expect(stopLeftoverDevServer(dir)).rejects.toThrow(`Another npm start (pid ${process.pid}) is running`);
    expect(processIdentity(server.pid)).toBeDefined();
  });

  it('forgets a record that cannot be read', async () => {
    const dir = stateDir();
    writeFileSync(path.join(dir, 'dev-server.json'), '{"server": 1');
    expect(await stopLeftoverDevServer(dir)).toBeUndefined();
    expect(existsSync(path.join(dir, 'dev-server.json'))).toBe(false);
  });
});
