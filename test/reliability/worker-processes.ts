/** Worker processes (test/reliability/worker-process.ts) to start and SIGKILL, for fault tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface WorkerProcessEnv {
  TEMPORAL_ADDRESS: string;
  TASK_QUEUE: string;
  MODEL_BASE_URL: string;
  DATA_DIR: string;
  BUNDLE_PATH: string;
  TEMPORAL_NAMESPACE?: string;
  STREAM_BATCH_MS?: string;
  FAULT?: string;
}

/** Every process started here and still running, so a suite can kill what is left. */
export const workerProcesses = new Set<ChildProcess>();

/** A worker process; resolves once it polls its task queue. */
export async function spawnWorkerProcess(env: WorkerProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/reliability/worker-process.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workerProcesses.add(child);
  child.once('exit', () => workerProcesses.delete(child));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('worker ready') && resolve());
    child.once('exit', (code, signal) => reject(new Error(`worker exited before it was ready (${code ?? signal})`)));
  });
  return child;
}

export function sigkill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}
