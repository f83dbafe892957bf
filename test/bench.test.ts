/**
 * `npm run bench -- --quick` as CI runs it: a real process, its own dev server, worker and LangGraph processes.
 * Checks that the results have the documented shape and that every paused run completed; the numbers themselves
 * are the benchmark's business. It runs alone, after the other suites (see vitest.config.ts); so does `npm run bench:replay`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BenchResults } from '../bench/schema.js';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../src/dev/server-dynamic-config.js';
import { runNpmScript } from './helpers/npm-script.js';

const outDir = mkdtempSync(path.join(tmpdir(), 'hitl-bench-test-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const runBench = () => runNpmScript('bench', ['--quick', '--out', outDir]);

describe('npm run bench -- --quick', () => {
  it('writes results.json of the documented shape and RESULTS.md, with every paused run completed', { timeout: 600_000 }, async () => {
    const { code, output } = await runBench();
    expect(code, output).toBe(0);

    const results = BenchResults.parse(JSON.parse(readFileSync(path.join(outDir, 'results.json'), 'utf8')));
    expect(results.mode).toBe('quick');
    expect(results.machine.serverDynamicConfig).toEqual(DEV_SERVER_DYNAMIC_CONFIG);
    expect(results.density.paused).toBe(results.density.runs);
    expect(results.density.completed).toBe(results.density.runs);
    expect(results.density.completion).toBe(1);
    // Read from Core's metrics: every decided run had workflow tasks.
    expect(results.density.rebuilds?.drainTasksPerRun).toBeGreaterThan(0);
    expect(results.peer.completed).toBe(results.peer.threads);
    expect(results.decisionLatency.ours.update.sentToToolStart.n).toBe(results.settings.latencySamples);
    // Timestamps to a fraction of a millisecond: whole-millisecond clocks would make every span an integer.
    const span = results.decisionLatency.ours.update.sentToToolStart;
    expect([span.min, span.p50, span.max].some((v) => !Number.isInteger(v))).toBe(true);
    // The decision's workflow task, read from history: it ends by scheduling the tool, and ours writes what the floor's
    // does and nothing more (the upserts follow in the run's next step; the tool's activity bounds how long they lag).
    const ours = results.decisionLatency.ours.update.decisionTask!;
    const floor = results.decisionLatency.floor.update.decisionTask!;
    expect(ours.taskStartedToCompleted.n).toBe(results.settings.latencySamples);
    expect(floor.taskEvents).toEqual(['WorkflowExecutionUpdateAccepted', 'WorkflowExecutionUpdateCompleted', 'ActivityTaskScheduled']);
    expect(ours.taskEvents).toEqual(floor.taskEvents);
    expect(results.targets.map((t) => t.id)).toEqual([
      'decision-latency',
      'step-overhead',
      'evicted-decision',
      'density',
      'history-events',
      'peer-resume',
    ]);
    expect(results.decisionLatency.openaiAgents.sentToToolStart.n).toBe(results.settings.latencySamples);
    expect(results.openaiAgentsPeer.history.runs).toBe(2);
    expect(results.evicted.sizes[0]!.evicted.sentToToolStart.n).toBe(results.evicted.sizes[0]!.samples);
    expect(results.evicted.floor?.evicted.sentToToolStart.n).toBe(results.evicted.floor?.samples);
    expect(results.streaming?.tokenToSubscriberMs.n).toBeGreaterThan(0);
    expect(results.streaming?.history.streamingWithOneSubscriber.acceptedPolls).toBeGreaterThan(0);

    const report = readFileSync(path.join(outDir, 'RESULTS.md'), 'utf8');
    expect(report).toContain('npm run bench -- --quick');
    expect(report).toContain('## Targets');
    expect(report).toContain('## 8. Streaming: what watching costs');
    expect(report).toContain('| floor: a bare workflow waiting for an update (4 events) |');
    expect(existsSync(path.join(outDir, 'results.json.tmp'))).toBe(false);
  });
});

describe('npm run bench:replay', () => {
  it(
    "replays a recorded history on a commit's bundle and this checkout's, then removes the commit's checkout",
    { timeout: 300_000 },
    async () => {
      const worktrees = () => execFileSync('git', ['worktree', 'list', '--porcelain']).toString();
      const before = worktrees();
      const history = 'test/histories/v13/late-local-result--read-and-write.json';
      const { code, output } = await runNpmScript('bench:replay', ['--history', history, '--base', 'HEAD', '--rounds', '2', '--per', '3']);
      expect(code, output).toBe(0);
      expect(output).toMatch(/^HEAD \(base\): \d+(\.\d+)? ms per replay/m);
      expect(output).toMatch(/^this checkout ÷ base: \d+(\.\d+)?$/m);
      expect(worktrees()).toBe(before);
    },
  );
});
