/**
 * Internet scale on paper: 1,000,000 approvals paused at once, decided at 100 a second, from one run's measured
 * inputs. Pure arithmetic over results.json, so RESULTS.md can be re-rendered (`--render-only`) when the model's
 * wording changes without measuring again.
 */
import type { BenchResults, ClusterDensityResults } from './schema.js';
import { round } from './stats.js';

export const PAUSED = 1_000_000;
export const DECISIONS_PER_SECOND = 100;
/**
 * Temporal Cloud's published base rate for Actions, pay as you go, per million: "$25 per one million Actions"
 * (docs.temporal.io/cloud/pricing, as read on 2026-11-23; volume credits go lower, $23.25 to $5.90).
 */
export const USD_PER_MILLION_ACTIONS = 25;
export const PRICE_AS_OF = '2026-11-23';

/**
 * Event types that Temporal Cloud bills as Actions (docs.temporal.io/cloud/pricing: workflow started, activity
 * started, timer started, search-attribute upsert, signal, update). Memo upserts and local-activity markers are
 * counted one each, which may overcount (Cloud counts local activities per workflow task). Queries (the inbox
 * asking what waits) are billed too but happen outside history; they are left out.
 */
const BILLED_EVENT_TYPES = [
  'WorkflowExecutionStarted',
  'ActivityTaskScheduled',
  'TimerStarted',
  'UpsertWorkflowSearchAttributes',
  'WorkflowPropertiesModified',
  'MarkerRecorded',
  'WorkflowExecutionUpdateAccepted',
  'WorkflowExecutionSignaled',
];

interface Row {
  name: string;
  value: string;
  source: string;
}

const f = (v: number, digits = 0) => round(v, digits).toLocaleString('en-US');
const GB = 1e9;

/**
 * @param cluster `npm run bench:cluster-density`'s results (bench/cluster-density.json), when there are any: a run of
 *   its own, whose PostgreSQL bytes and server CPU per paused run are inputs beside this run's.
 */
export function projection(r: BenchResults, cluster?: ClusterDensityResults) {
  const gated = r.history.gatedRunUpdate;
  const actions = BILLED_EVENT_TYPES.reduce((n, t) => n + (gated.eventTypes[t] ?? 0), 0);
  const long = r.evicted.sizes.find((s) => s.events >= 1000 && s.events < 2000 && !s.continued);
  const cpuPerApprovalMs = r.density.cpu.workerMsPerPause + r.density.cpu.workerMsPerDecision;
  const serverCpuPerApprovalMs = r.density.cpu.serverMsPerPause + r.density.cpu.serverMsPerDecision;
  const perCached = r.density.worker.perCachedRunBytes;
  const evictedReplayMs = long?.replayCostMsP50 ?? 0;
  const clusterSource = cluster
    ? `bench/CLUSTER-DENSITY.md: ${f(cluster.density.runs)} runs paused on a Temporal cluster on PostgreSQL (a run of its own, ${cluster.startedAt.slice(0, 10)})`
    : '';
  const clusterCpuMs = cluster ? cluster.density.cpu.serverMsPerPause + cluster.density.cpu.serverMsPerDecision : 0;
  const postgresGB = cluster ? (PAUSED * cluster.storage.perPausedRunBytes) / GB : 0;

  // Storage: every paused run's history so far (the whole one-approval run: an upper bound for a paused one).
  const storageGB = (PAUSED * gated.bytes) / GB;
  const storageLongGB = long ? (PAUSED * long.bytes) / GB : 0;
  // Actions: each approval is one run here (start, model call, pause, decision, tool, model call, end).
  const approvalsPerMonth = DECISIONS_PER_SECOND * 86_400 * 30;
  const actionsPerMonth = approvalsPerMonth * actions;
  const usdPerMonth = (actionsPerMonth / 1e6) * USD_PER_MILLION_ACTIONS;
  // Worker CPU: in steady state runs start and are decided at the same rate; density measured both, with most
  // decisions landing on runs evicted from the cache (it held 200 of 10,000), so replays are included.
  const workerCores = (DECISIONS_PER_SECOND * cpuPerApprovalMs) / 1000;
  const replayCoresLong = (DECISIONS_PER_SECOND * evictedReplayMs) / 1000;
  // Cache: what must be in memory is the runs in flight, not the paused ones.
  const inFlight = DECISIONS_PER_SECOND * (r.decisionLatency.ours.update.sentToNextCall.p99 / 1000 + 1);
  const allCachedGB = (PAUSED * perCached) / GB;

  const inputs: Row[] = [
    { name: 'paused approvals', value: f(PAUSED), source: 'the question' },
    { name: 'decisions per second', value: f(DECISIONS_PER_SECOND), source: 'the question' },
    { name: 'history events per approval', value: f(gated.events), source: 'section 4, a whole run with one gated call' },
    { name: 'history bytes per approval', value: f(gated.bytes), source: 'section 4 (the server’s historySizeBytes)' },
    ...(long
      ? [{ name: 'history bytes of a paused run after 140 steps', value: f(long.bytes), source: `evicted runs, ${f(long.events)} events` }]
      : []),
    {
      name: 'actions per approval',
      value: f(actions),
      source: `its event types: ${BILLED_EVENT_TYPES.filter((t) => gated.eventTypes[t])
        .map((t) => `${t} ${gated.eventTypes[t]}`)
        .join(', ')}`,
    },
    {
      name: 'price per million actions',
      value: `$${USD_PER_MILLION_ACTIONS}`,
      source: `Temporal Cloud, pay as you go (docs.temporal.io/cloud/pricing, ${PRICE_AS_OF})`,
    },
    {
      name: 'worker CPU per approval (pause + decision), ms',
      value: f(cpuPerApprovalMs, 1),
      source: `section 3 (density), CPU time of the worker process${
        r.density.rebuilds
          ? `; it includes ${r.density.rebuilds.perDecidedRun} rebuilds of the run from history per decision${
              r.density.rebuilds.perDecidedRun > 1 ? ' (more runs were active at once during the drain than the worker caches)' : ''
            }`
          : ''
      }`,
    },
    {
      name: 'server CPU per approval, ms (dev server)',
      value: f(serverCpuPerApprovalMs, 1),
      source: 'section 3; a production cluster differs',
    },
    { name: 'worker CPU per automatic step, ms', value: f(r.stepOverhead.ours.cpuMsPerStep.worker, 1), source: 'section 2' },
    {
      name: 'replay of an evicted 1,000-event run, ms',
      value: f(evictedReplayMs, 0),
      source: 'evicted runs, p50 evicted − cached (wall time)',
    },
    { name: 'worker RSS per cached run', value: `${f(perCached / 1024, 0)} KiB`, source: 'section 3' },
    ...(cluster
      ? [
          {
            name: 'PostgreSQL bytes per paused run',
            value: f(cluster.storage.perPausedRunBytes),
            source: `${clusterSource}: both databases, history and visibility, with their indexes`,
          },
          {
            name: 'server CPU per approval, ms (Temporal server + PostgreSQL)',
            value: f(clusterCpuMs, 1),
            source: `${clusterSource}${
              cluster.density.rebuilds
                ? `; its decisions include ${cluster.density.rebuilds.perDecidedRun} rebuilds of the run per decision, as the worker's do`
                : ''
            }`,
          },
        ]
      : []),
  ];
  const outputs: { name: string; value: string; how: string }[] = [
    { name: 'server storage for the paused runs', value: `${f(storageGB, 1)} GB`, how: `${f(PAUSED)} × ${f(gated.bytes)} bytes` },
    ...(cluster
      ? [
          {
            name: '… as PostgreSQL stores them (one approval each)',
            value: `${f(postgresGB, 1)} GB`,
            how: `${f(PAUSED)} × ${f(cluster.storage.perPausedRunBytes)} bytes`,
          },
        ]
      : []),
    ...(long
      ? [{ name: '… if each had 140 steps behind it', value: `${f(storageLongGB, 0)} GB`, how: `${f(PAUSED)} × ${f(long.bytes)} bytes` }]
      : []),
    { name: 'approvals per month', value: f(approvalsPerMonth), how: `${DECISIONS_PER_SECOND}/s × 30 days` },
    { name: 'actions per month', value: f(actionsPerMonth), how: `approvals × ${actions}` },
    { name: 'actions, USD per month', value: `$${f(usdPerMonth)}`, how: `at $${USD_PER_MILLION_ACTIONS} per million` },
    { name: 'worker CPU, cores busy', value: f(workerCores, 1), how: `${DECISIONS_PER_SECOND}/s × ${f(cpuPerApprovalMs, 1)} ms` },
    {
      name: '… plus replay if each decided run had 1,000 events',
      value: f(replayCoresLong, 1),
      how: `${DECISIONS_PER_SECOND}/s × ${f(evictedReplayMs)} ms (wall time: an upper bound on its CPU)`,
    },
    ...(cluster
      ? [
          {
            name: 'server CPU (Temporal server + PostgreSQL), cores busy',
            value: f((DECISIONS_PER_SECOND * clusterCpuMs) / 1000, 1),
            how: `${DECISIONS_PER_SECOND}/s × ${f(clusterCpuMs, 1)} ms`,
          },
        ]
      : []),
    {
      name: 'runs that must be cached (in flight)',
      value: f(inFlight),
      how: 'decisions/s × (decision → next model call p99 + 1 s of model call)',
    },
    {
      name: 'cache per worker (4 workers)',
      value: `${f(Math.ceil(inFlight / 4))} runs, ${f((Math.ceil(inFlight / 4) * perCached) / 2 ** 20, 0)} MiB`,
      how: 'in-flight runs ÷ workers × RSS per cached run',
    },
    { name: 'memory to keep all paused runs cached instead', value: `${f(allCachedGB, 0)} GB`, how: `${f(PAUSED)} × RSS per cached run` },
  ];
  const bill = usdPerMonth;
  const storage = cluster
    ? `${f(storageGB, 1)} GB of history (${f(postgresGB, 1)} GB as PostgreSQL stores it, with mutable state, timers, visibility rows and indexes)`
    : `${f(storageGB, 1)} GB of history`;
  const dominant = `**Which input dominates.** Money: actions per approval (${actions}) × the price, $${f(bill)} a month at this rate, against ${storage} and about ${f(Math.ceil(workerCores + replayCoresLong))} busy worker cores. Of those actions, ${gated.eventTypes.UpsertWorkflowSearchAttributes ?? 0} are search-attribute upserts, ${gated.eventTypes.WorkflowPropertiesModified ?? 0} memo upserts and ${gated.eventTypes.MarkerRecorded ?? 0} markers. Two of them are the run's patch-set marker and the \`TemporalChangeVersion\` upsert the SDK sends with it (one of each per run since patch sets, src/workflows/patches.ts), which retiring the patches once no run from before them is open would save; one marker is the local activity that resolves the agent. The rest keep the inbox's views current (status, pending tools, count and deadline at start, pause, decision and end; the prompt and the pending calls in the memo), each sent only when it changes. The floor's approval would bill 4 (start, tool, next call, the decision). Worker fleet: CPU per decision, and on long runs the replay of evicted histories (${f(evictedReplayMs)} ms per 1,000-event run), not memory: a paused run needs none once evicted, and caching all of them would take ${f(allCachedGB, 0)} GB.`;
  return { decisionsPerSecond: DECISIONS_PER_SECOND, inputs, outputs, dominant };
}
