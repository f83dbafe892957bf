/**
 * The streaming scenario (bench/scenarios/streaming.ts, standalone: its own dev server and workers) run from
 * `npm run bench` as a child process; its JSON report is parsed here.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StreamingResult } from '../schema.js';

const SCRIPT = fileURLToPath(new URL('./streaming.ts', import.meta.url));

export function measureStreaming(options: { tokens: number; msPerToken: number; interval: number }): Promise<StreamingResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        SCRIPT,
        '--tokens',
        String(options.tokens),
        '--ms-per-token',
        String(options.msPerToken),
        '--interval',
        String(options.interval),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`streaming scenario exited ${code}: ${err}`));
      try {
        resolve(StreamingResult.parse(JSON.parse(out.slice(out.indexOf('{')))));
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}
