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

export interface RunHitlOptions {
  input?: string;
  env?: Record<string, string>;
  onStdout?: (soFar: string) => void;
  /** A reader that stops reading (`| head`): stdout's pipe is closed before the CLI writes, or after its first chunk. */
  closeStdout?: 'at-once' | 'after-first-chunk';
  /** stdout goes to this open file descriptor instead of a pipe (then `stdout` is empty). */
  stdoutFd?: number;
}

export function runHitl(h: Harness, args: string[], options: RunHitlOptions = {}): Promise<CliResult> {
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
      stdio: ['pipe', options.stdoutFd ?? 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    if (options.closeStdout === 'at-once') child.stdout?.destroy();
    child.stdout?.on('data', (d) => {
      stdout += d;
      if (options.closeStdout === 'after-first-chunk') child.stdout?.destroy();
      options.onStdout?.(stdout);
    });
    // stdin and stderr are always pipes (only stdout may go elsewhere).
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdin!.end(options.input ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
