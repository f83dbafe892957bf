/**
 * deploy/grafana-dashboard.json cannot be loaded into Grafana here, so it is checked against the code: every
 * `hitl_*` series it queries is one we emit (src/contract/metric-names.ts), and every metric we emit has a panel.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METRICS } from '../../src/contract/metric-names.js';

interface Panel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: { expr: string }[];
}
const dashboard = JSON.parse(readFileSync('deploy/grafana-dashboard.json', 'utf8')) as {
  panels: Panel[];
  templating: { list: { name: string }[] };
};
const queries = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
const emitted = new Set<string>(Object.values(METRICS));
/** A histogram's series are its name plus a suffix. */
const base = (series: string) => series.replace(/_(bucket|count|sum)$/, '');

describe('the Grafana dashboard', () => {
  it('queries only metrics we emit, and shows every one of them', () => {
    const queried = new Set(queries.flatMap((q) => q.match(/\bhitl_[a-z_]+/g) ?? []).map(base));
    expect([...queried].filter((name) => !emitted.has(name))).toEqual([]);
    expect([...emitted].filter((name) => !queried.has(name))).toEqual([]);
  });

  it('reads from the datasource chosen on import', () => {
    expect(dashboard.templating.list.map((v) => v.name)).toContain('datasource');
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
  });
});
