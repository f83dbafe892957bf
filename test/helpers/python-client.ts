/**
 * The seed-client tests' Python client (test/python/seed_client.py, the `temporalio` SDK from PyPI), in the venv
 * scripts/python-client.sh makes once (CI runs the same script first). One process answers every request in turn.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { TestTemporal } from './temporal.js';

const PYTHON = path.resolve('.cache/python-client/bin/python');
const SCRIPT = path.resolve('test/python/seed_client.py');

export type PythonAnswer = { ok: true; result?: unknown } | { ok: false; type: string; message: string; code?: string };
export type PythonCommand = 'query' | 'update' | 'signal';
export interface PythonClient {
  (workflowId: string, command: PythonCommand, argument: unknown): Promise<PythonAnswer>;
  close(): Promise<void>;
}

export async function pythonClient(temporal: Pick<TestTemporal, 'address' | 'namespace'>): Promise<PythonClient> {
  await promisify(execFile)('bash', ['scripts/python-client.sh'], { timeout: 300_000 });
  const child = spawn(PYTHON, [SCRIPT, '--address', temporal.address, '--namespace', temporal.namespace], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<PythonAnswer> => {
    const line = await lines.next();
    if (line.done) throw new Error('the Python client exited');
    return JSON.parse(line.value) as PythonAnswer;
  };
  await next(); // connected
  let queue = Promise.resolve<unknown>(undefined);
  const ask = (workflowId: string, command: PythonCommand, argument: unknown): Promise<PythonAnswer> => {
    const answer = queue.then(() => {
      child.stdin.write(`${JSON.stringify({ workflowId, command, argument })}\n`);
      return next();
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return Object.assign(ask, {
    async close() {
      child.stdin.end();
      await exited;
    },
  });
}
