/**
 * createWorker limits how far V8 lets a heap grow between full collections (src/worker.ts, limitHeapGrowth): a
 * worker deciding thousands of paused runs allocates fast, and with V8's own heuristic its workflow thread's heap
 * settles at several times its live data. The limit must reach a worker thread created after it is set, as the
 * SDK's workflow thread is.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

async function peakHeapMiB(percent: number): Promise<number> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/fixtures/heap-growth-child.ts', String(percent)]);
  return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { peakMiB: number }).peakMiB;
}

it('keeps a worker thread heap close to its live data at 30%, where V8 alone lets it grow far past it', { timeout: 120_000 }, async () => {
  const v8Heuristic = await peakHeapMiB(0);
  const limited = await peakHeapMiB(30);
  console.log(`peak heap of a thread holding ~150 MiB: ${v8Heuristic} MiB with V8's heuristic, ${limited} MiB at 30%`);
  expect(limited).toBeLessThan(v8Heuristic * 0.7);
});
