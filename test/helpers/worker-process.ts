/** Workers in their own processes (test/reliability/worker-process.ts), so tests can SIGKILL them. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * Spawns a worker process configured by `env` (see worker-process.ts) with the suite's bundle, adds it to `workers`
 * while it lives, and resolves once it polls.
 */
export async function spawnWorkerProcess(env: Record<string, string>, workers: Set<ChildProcess>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/reliability/worker-process.ts')], {
    env: { ...process.env, BUNDLE_PATH: inject('workflowBundlePath'), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workers.add(child);
  child.once('exit', () => workers.delete(child));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('worker ready') && resolve());
    child.once('exit', (code, signal) => reject(new Error(`worker exited before it was ready (${code ?? signal})`)));
  });
  return child;
}

/** SIGKILLs the process and resolves once it is gone. */
export function sigkill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}
