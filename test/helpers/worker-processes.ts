/** Workers in processes of their own (test/reliability/worker-process.ts), so a test can SIGKILL them. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface WorkerProcessOptions {
  address: string;
  taskQueue: string;
  modelBaseURL: string;
  dataDir: string;
  bundlePath: string;
  /** See test/reliability/worker-process.ts. */
  fault?: string;
  /** @default 'default' */
  namespace?: string;
  /** Agents declared in a file (HITL_AGENTS_FILE), beside those in code. */
  agentsFile?: string;
  /** Model calls stream, in batches this long. */
  streamBatchMs?: number;
}

/** Every worker process the test file started and that still runs; kill them all in afterAll. */
export const workerProcesses = new Set<ChildProcess>();

/** A worker process on `taskQueue`; resolves once it polls. */
export async function spawnWorkerProcess(options: WorkerProcessOptions): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/reliability/worker-process.ts')], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: options.address,
      TASK_QUEUE: options.taskQueue,
      MODEL_BASE_URL: options.modelBaseURL,
      DATA_DIR: options.dataDir,
      BUNDLE_PATH: options.bundlePath,
      ...(options.fault && { FAULT: options.fault }),
      ...(options.namespace && { NAMESPACE: options.namespace }),
      ...(options.agentsFile && { AGENTS_FILE: options.agentsFile }),
      ...(options.streamBatchMs !== undefined && { STREAM_BATCH_MS: String(options.streamBatchMs) }),
    },
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
