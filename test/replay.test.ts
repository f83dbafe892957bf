/**
 * Safe deploys: every recorded history (test/histories/<set>/, recorded by `npm run record-histories -- <set>`)
 * replays with the current workflow code. A change that would break a paused run fails here first.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Worker, type ReplayWorkerOptions, type ReplayResult } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { readEnvConfig } from '../src/config.js';
import { startTracing, stopTracing, tracingWorkerOptions } from '../src/telemetry/tracing.js';
import { bundleWorkflows, TRACING_WORKFLOW_INTERCEPTOR_MODULES } from '../src/workflow-bundle.js';
import { HISTORIES_DIR } from './helpers/harness.js';

export async function replayAll(bundlePath: string, files: string[], options: Partial<ReplayWorkerOptions> = {}): Promise<ReplayResult[]> {
  // Recorded as {workflowId, history}; the first set holds bare histories (from runs that never derive ids).
  const histories = files.map((file) => {
    const json = JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8'));
    return json.history ? { workflowId: json.workflowId, history: json.history } : { workflowId: file, history: json };
  });
  const results: ReplayResult[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: { codePath: bundlePath }, replayName: 'replay-suite', ...options },
    histories,
  )) {
    results.push(result);
  }
  return results;
}

// Every set: each is what paused runs of some earlier code look like.
const historyFiles = () => readdirSync(HISTORIES_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));

/**
 * The traced pass's histories: every one of the newest set, and every eighth of each older set (in name order). The
 * tracing interceptors wrap the same SDK calls whatever code recorded a history, so the newest set meets every kind
 * of command today's code gives, and the sample of each older set the paths only its runs take; in a fifth of the time.
 */
function tracedSample(files: string[]): string[] {
  const setOf = (file: string) => Number(/^v(\d+)[\\/]/.exec(file)?.[1] ?? 0);
  const newest = Math.max(...files.map(setOf));
  const seen = new Map<number, number>();
  return [...files].sort().filter((file) => {
    const set = setOf(file);
    const index = seen.get(set) ?? 0;
    seen.set(set, index + 1);
    return set === newest || index % 8 === 0;
  });
}

// Some 4,000 histories replayed, then a sample of them with tracing: minutes on a busy 2-core machine, hence the long timeouts.
describe('replay', () => {
  it('replays every recorded history without a determinism error', { timeout: 600_000 }, async () => {
    const files = historyFiles();
    expect(files.length).toBeGreaterThanOrEqual(18);
    const results = await replayAll(inject('workflowBundlePath'), files);
    expect(results).toHaveLength(files.length);
    expect(results.filter((r) => r.error).map((r) => `${r.workflowId}: ${r.error?.message}`)).toEqual([]);
    console.log(`replayed ${results.length} histories`);
  });

  it('replays a sample of every set with tracing turned on: the interceptors add no commands', { timeout: 600_000 }, async () => {
    const exporter = new InMemorySpanExporter();
    await startTracing(readEnvConfig({}), 'hitl-replay', { spanProcessor: new SimpleSpanProcessor(exporter) });
    try {
      const { code } = await bundleWorkflows({
        workflowInterceptorModules: TRACING_WORKFLOW_INTERCEPTOR_MODULES,
        logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
      });
      const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-traced-replay-')), 'workflows.js');
      writeFileSync(bundlePath, code);
      const files = tracedSample(historyFiles());
      expect(files.length).toBeGreaterThan(400);
      const results = await replayAll(bundlePath, files, { sinks: tracingWorkerOptions().sinks });
      expect(results).toHaveLength(files.length);
      expect(results.filter((r) => r.error).map((r) => `${r.workflowId}: ${r.error?.message}`)).toEqual([]);
      // Replays export nothing: the spans of a run leave through a sink the SDK does not call during replay.
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      await stopTracing();
    }
  });
});
