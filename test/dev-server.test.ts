/**
 * The dev server harness leaves nothing behind: not after an exception, not after Ctrl-C or a SIGTERM, and not after
 * a SIGKILL, which runs no handler of the process it kills (the server's supervisor stops it then).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from './helpers/history.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function serverOwnedByChild(fault: 'throw' | 'wait') {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/fixtures/server-then-fault.ts'), fault], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const serverPid = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      const match = /server (\d+)/.exec(String(d));
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`exited early (${code})`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, serverPid, exited };
}

describe('dev server harness', () => {
  it.each(['throw', 'SIGINT', 'SIGTERM', 'SIGKILL'] as const)('leaves no server running after %s', { timeout: 120_000 }, async (fault) => {
    const { child, serverPid, exited } = await serverOwnedByChild(fault === 'throw' ? 'throw' : 'wait');
    expect(alive(serverPid)).toBe(true);
    if (fault !== 'throw') child.kill(fault);
    await exited;
    try {
      // The harness gives the server 10 s to stop before it kills it; a loaded machine adds to that.
      await waitFor(() => !alive(serverPid), 60_000, `server ${serverPid} to be gone`);
    } finally {
      // A server this test's fixture started and left behind is stopped here, not left to hold its port.
      if (alive(serverPid)) process.kill(serverPid, 'SIGKILL');
    }
  });
});
