/** Runs the `hitl` CLI as a real process against a harness's server and task queue. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Harness } from './harness.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const BIN = path.resolve('bin/hitl.js');

export function runHitl(
  h: Harness,
  args: string[],
  options: { input?: string; env?: Record<string, string>; onStdout?: (soFar: string) => void } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: h.temporal.address,
        TEMPORAL_NAMESPACE: h.temporal.namespace,
        TEMPORAL_TASK_QUEUE: h.taskQueue,
        NO_COLOR: '1',
        // Vitest sets EDITOR=vi; without a terminal that would wait forever.
        EDITOR: '',
        VISUAL: '',
        ...options.env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      options.onStdout?.(stdout);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(options.input ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
