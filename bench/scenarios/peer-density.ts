/**
 * The peer's density: `threads` LangGraph threads paused on `interrupt()` at once in one process (a fresh child,
 * so its RSS is its own), then all resumed; the same shape as our density scenario.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { startPeerChild, uniqueName, type BenchContext } from '../context.js';
import type { BenchChild } from '../ipc.js';
import { round } from '../stats.js';

export interface PeerDensity {
  threads: number;
  pauseSeconds: number;
  baselineRssBytes: number;
  pausedRssBytes: number;
  perPausedThreadBytes: number;
  checkpointFileBytes: number;
  drain: { concurrency: number; completionsPerSecond: number; seconds: number };
  completed: number;
}

export function peerDensityFile(ctx: Pick<BenchContext, 'tmpDir'>): string {
  return path.join(ctx.tmpDir, 'peer-density.sqlite');
}

/** `peer` may be started ahead of time on `peerDensityFile(ctx)`. */
export async function measurePeerDensity(ctx: BenchContext, threads: number, concurrency: number, peer?: BenchChild): Promise<PeerDensity> {
  const file = peerDensityFile(ctx);
  peer ??= await startPeerChild(ctx, file);
  try {
    const tag = uniqueName('peer');
    const warm = Array.from({ length: 20 }, (_, i) => `${tag}-warmup-${i}`);
    await peer.request('pause', { threadIds: warm, concurrency: 4 });
    await peer.request('drain', { threadIds: warm, concurrency: 4 });
    const baseline = await peer.request<{ rss: number }>('memory');
    ctx.model.clearRequests();

    const ids = Array.from({ length: threads }, (_, i) => `${tag}-${i}`);
    // LangGraph runs the graph in the caller's process; a few invocations in flight overlap the model's HTTP.
    const { ms: pauseMs } = await peer.request<{ ms: number }>('pause', { threadIds: ids, concurrency: 8 });
    ctx.log(`  ${threads} LangGraph threads paused in ${round(pauseMs / 1000, 1)}s`);
    const paused = await peer.request<{ rss: number }>('memory');
    const checkpointFileBytes = ['', '-wal', '-shm'].reduce((n, s) => n + (existsSync(file + s) ? statSync(file + s).size : 0), 0);
    ctx.model.clearRequests();
    const drain = await peer.request<{ ms: number; completed: number; errors: string[] }>('drain', { threadIds: ids, concurrency });
    ctx.model.clearRequests();
    ctx.log(`  ${drain.completed}/${threads} LangGraph threads completed in ${round(drain.ms / 1000, 1)}s`);
    for (const error of drain.errors) ctx.log(`  a LangGraph thread failed: ${error.slice(0, 300)}`);
    return {
      threads,
      pauseSeconds: round(pauseMs / 1000, 2),
      baselineRssBytes: baseline.rss,
      pausedRssBytes: paused.rss,
      perPausedThreadBytes: Math.round((paused.rss - baseline.rss) / threads),
      checkpointFileBytes,
      drain: {
        concurrency,
        completionsPerSecond: round(threads / Math.max(0.001, drain.ms / 1000), 1),
        seconds: round(drain.ms / 1000, 2),
      },
      completed: drain.completed,
    };
  } finally {
    await peer.stop();
  }
}
