/**
 * `npm run bench:cluster-density` as its README line runs it, at a small size: its own Temporal cluster on
 * PostgreSQL, runs paused and decided, and results of the documented shape, PostgreSQL's bytes included.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClusterDensityResults } from '../../bench/schema.js';
import { runNpmScript } from '../helpers/npm-script.js';

const outDir = mkdtempSync(path.join(tmpdir(), 'hitl-cluster-density-test-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const run = (args: string[]) => runNpmScript('bench:cluster-density', [...args, '--out', outDir]);

describe('npm run bench:cluster-density', () => {
  it('pauses and decides every run on its own cluster, and says what PostgreSQL stored per paused run', { timeout: 600_000 }, async () => {
    const { code, output } = await run(['--runs', '20', '--concurrency', '10']);
    expect(code, output).toBe(0);
    const results = ClusterDensityResults.parse(JSON.parse(readFileSync(path.join(outDir, 'cluster-density.json'), 'utf8')));
    expect(results.machine.serverStorage).toBe('postgresql');
    expect(results.density).toMatchObject({ runs: 20, paused: 20, completed: 20, completion: 1 });
    expect(results.density.drain.concurrency).toBe(10);
    // Paused runs take room in PostgreSQL, and completed ones more (retention keeps them).
    expect(results.storage.pausedBytes).toBeGreaterThan(results.storage.emptyBytes);
    expect(results.storage.drainedBytes).toBeGreaterThan(results.storage.pausedBytes);
    expect(results.storage.perPausedRunBytes).toBeGreaterThan(0);
    // PostgreSQL's processes count in the server's CPU, beside the Temporal server's.
    expect(results.density.cpu.serverMsPerDecision).toBeGreaterThan(0);
    const report = readFileSync(path.join(outDir, 'CLUSTER-DENSITY.md'), 'utf8');
    expect(report).toContain('npm run bench:cluster-density -- --runs 20 --concurrency 10');
    expect(report).toContain('| PostgreSQL, all runs paused (both databases) |');

    // Its wording can change without measuring again.
    rmSync(path.join(outDir, 'CLUSTER-DENSITY.md'));
    expect((await run(['--render-only'])).code).toBe(0);
    expect(readFileSync(path.join(outDir, 'CLUSTER-DENSITY.md'), 'utf8')).toBe(report);
  });
});
