/**
 * bench/RESULTS.md is rendered from the committed results.json, with the cluster density run's results
 * (bench/cluster-density.json) cited in section 3 and in the projection's inputs. Pure: no server.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../bench/report.js';
import { BenchResults, ClusterDensityResults } from '../../bench/schema.js';

const bench = (file: string) => JSON.parse(readFileSync(new URL(`../../bench/${file}`, import.meta.url), 'utf8'));
const results = BenchResults.parse(bench('results.json'));
const cluster = ClusterDensityResults.parse(bench('cluster-density.json'));

describe('bench/RESULTS.md', () => {
  it('is what the committed results render to, the cluster run included', () => {
    const committed = readFileSync(new URL('../../bench/RESULTS.md', import.meta.url), 'utf8');
    expect(renderReport(results, cluster)).toBe(committed);
  });

  it('cites the cluster run where it is an input, and only when there is one', () => {
    const perPaused = cluster.storage.perPausedRunBytes.toLocaleString('en-US');
    const withCluster = renderReport(results, cluster);
    expect(withCluster).toContain('**On a Temporal cluster on PostgreSQL**');
    expect(withCluster).toContain(`| PostgreSQL bytes per paused run | ${perPaused} |`);
    expect(withCluster).toMatch(/\| … as PostgreSQL stores them \(one approval each\) \| [\d.,]+ GB \| 1,000,000 × /);
    const alone = renderReport(results);
    expect(alone).not.toContain('PostgreSQL');
    expect(alone).toContain('| server storage for the paused runs |');
  });
});
