/** RESULTS.md sections for density, the decision's task, evicted runs, the second peer, streaming and the internet-scale projection. */
import { projection } from './projection.js';
import type { BenchResults, ClusterDensityResults } from './schema.js';
import { round } from './stats.js';

const ms = (v: number) => `${round(v, 1)}`;
const x = (v: number) => `${round(v, 2)}×`;
const n = (v: number, digits = 0) => round(v, digits).toLocaleString('en-US');
const mib = (bytes: number) => `${round(bytes / 2 ** 20, bytes < 100 * 2 ** 20 ? 1 : 0)} MiB`;
const kib = (bytes: number) => `${round(bytes / 1024, 1)} KiB`;
const pct = (v: number) => `${round(v * 100, 2)}%`;

/** A Markdown table (prettier aligns it when RESULTS.md is formatted). */
export function table(header: string[], rows: (string | number)[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** The events `ours` holds beyond those of `floor`, counted as a multiset (the floor's are a subset of ours). */
function extraEvents(ours: readonly string[], floor: readonly string[]): string[] {
  const left = [...floor];
  return ours.filter((event) => {
    const i = left.indexOf(event);
    if (i === -1) return true;
    left.splice(i, 1);
    return false;
  });
}

const longer = (deltaMs: number) => `${ms(Math.abs(deltaMs))} ms ${deltaMs < 0 ? 'less' : 'longer'}`;

/**
 * What of the gap is the events a pause writes: the decision's task carries them to the worker (experiment
 * floor-paused-like-ours, against a floor that writes them too).
 */
function likeOursParagraph(e: Record<string, number> | undefined, d: BenchResults['decisionLatency']): string {
  if (e?.toolStartRatioP50 === undefined) return '';
  const task = e.taskStartedToCompletedP50Ms! - e.floorTaskStartedToCompletedP50Ms!;
  const completion = e.taskCompletedToToolStartP50Ms! - e.floorTaskCompletedToToolStartP50Ms!;
  const ours = d.ours.update.decisionTask;
  const bare = d.floor.update.decisionTask;
  const againstBare =
    ours && bare
      ? ` Against the bare floor, in the main series above, the same two were ${longer(
          ours.taskStartedToCompleted.p50 - bare.taskStartedToCompleted.p50,
        )} and ${longer(ours.taskCompletedToToolStart.p50 - bare.taskCompletedToToolStart.p50)}: the two come from
different windows of a shared machine, so only a difference of more than a few tenths of a millisecond between them
says much.`
      : '';
  return `

**What the pause leaves to the decision.** A workflow task brings the worker the events written since its last one,
so the decision's task also carries what the pausing task wrote: ours, the search attributes and memo that list the
waiting call and its deadline timer (three events); the bare floor, none. Against a floor whose pause writes the same
three (experiment floor-paused-like-ours: floorPausedLikeOursWorkflow in bench/floor/workflows.ts, a worker of its own,
in a window of this run), decision sent → tool starts was ${ms(e.sentToToolStartP50Ms!)} ms against its ${ms(e.floorSentToToolStartP50Ms!)} ms
(${x(e.toolStartRatioP50)} at p50, ${x(e.toolStartRatioP99!)} at p99); our task took ${longer(task)} than its task, and our completion
${longer(completion)} to reach the tool. That difference is our task's own work (our code, with its larger update
result and tool input); the rest of the gap to the bare floor is what a pause that lists the call and bounds its wait
costs the decision that ends it.${againstBare}`;
}

/**
 * Decision sent → tool starts, cut at the workflow task that applied the decision, ours against the floor; with
 * the listings in the decision's own task (as before they followed in the next step), the decision's task as of patch
 * set 10, and against a floor that pauses like ours, when those experiments ran.
 */
export function decisionTaskSection(
  d: BenchResults['decisionLatency'],
  inTask: Record<string, number> | undefined,
  set10: Record<string, number> | undefined,
  likeOurs: Record<string, number> | undefined,
): string {
  const series: [string, BenchResults['decisionLatency']['ours']['update']][] = [
    ['ours, `decide` update', d.ours.update],
    ['floor, update', d.floor.update],
    ['ours, `decision` signal', d.ours.signal],
    ['floor, signal', d.floor.signal],
  ];
  const rows = series.flatMap(([label, s]) => {
    const t = s.decisionTask;
    if (!t) return [];
    return [
      [
        label,
        ms(t.sentToTaskScheduled.p50),
        ms(t.taskStartedToCompleted.p50),
        ms(t.taskCompletedToToolStart.p50),
        ms(s.sentToToolStart.p50),
        t.taskEvents.join(', '),
      ],
    ];
  });
  if (rows.length === 0) return '';
  const ours = d.ours.update.decisionTask;
  const floor = d.floor.update.decisionTask;
  const extra = (f: (t: NonNullable<typeof ours>) => { p50: number }) => (ours && floor ? ms(f(ours).p50 - f(floor).p50) : '–');
  const beyond = ours && floor ? extraEvents(ours.taskEvents, floor.taskEvents) : [];
  return `### Where decision sent → tool starts goes

Each sampled run's history, cut at the workflow task that applied the decision (bench/scenarios/decision-task.ts):
the decision reaching the server (sent → that task is scheduled; a signal's task is the next one), the task on the
worker as the server recorded it (started → completed: the activation and the round trip to the worker), and the
server handling the task's completion until the approved tool starts on the worker (eagerly, in the reply). p50 of
each span, in milliseconds, so the columns need not add up to the last one.

${table(['series', 'sent → task scheduled', 'task started → completed', 'task completed → tool starts', 'sent → tool starts', 'events the task wrote, up to the tool'], rows)}

By update, our task takes ${extra((t) => t.taskStartedToCompleted)} ms longer than the floor's at p50, and its completion ${extra((t) => t.taskCompletedToToolStart)} ms longer to
reach the tool. Beyond the floor's events, ours writes ${beyond.length ? beyond.join(', ') : 'nothing'}${
    beyond.includes('TimerStarted') ? ' (the timer that bounds how long lists may lag behind the decision)' : ''
  }: the task starts the approved tool first, and the search-attribute and memo upserts that keep lists and the
Temporal UI current, with the cancellation of the call's deadline timer, follow in the run's next step: the tool's
result, or the tool's own wake-up a second after it started while it still runs (src/workflows/run-visibility.ts,
\`deferListings\`; src/activities/listings-wake.ts).${
    inTask
      ? ` With them in the decision's own task, as before (experiment listings-in-decision-task: a worker of its own, against the floor in a window of this run), decision sent → tool starts was
${ms(inTask.sentToToolStartP50Ms!)} ms against the floor's ${ms(inTask.floorSentToToolStartP50Ms!)} ms (${x(inTask.toolStartRatioP50!)} at p50, ${x(inTask.toolStartRatioP99!)} at p99), the task ${ms(
          inTask.taskStartedToCompletedP50Ms!,
        )} ms and its completion to the tool ${ms(inTask.taskCompletedToToolStartP50Ms!)} ms.`
      : ''
  }${
    set10?.toolStartRatioP50 !== undefined
      ? ` As of patch set 10, with the lag bound's timer in the decision's task and the call's awaits on its way to the tool (experiment decision-task-set-10), it was
${ms(set10.sentToToolStartP50Ms!)} ms against the floor's ${ms(set10.floorSentToToolStartP50Ms!)} ms (${x(set10.toolStartRatioP50)} at p50, ${x(set10.toolStartRatioP99!)} at p99), the task ${ms(
          set10.taskStartedToCompletedP50Ms!,
        )} ms against the floor's ${ms(set10.floorTaskStartedToCompletedP50Ms!)} ms.`
      : ''
  }${likeOursParagraph(likeOurs, d)}`;
}

type Spans = Record<'sentToToolStart' | 'sentToReturned', { p50: number; p99: number }>;
type EvictedFigures = { bytes: number; cached: Spans; evicted: Spans; ratioP50: number; ratioP99: number; replayCostMsP50: number };

/** One row of section 6's table: a size of ours or the floor, under `label`. */
function evictedRow(label: string, f: EvictedFigures): string[] {
  return [
    label,
    n(f.bytes),
    `${ms(f.cached.sentToToolStart.p50)} / ${ms(f.cached.sentToToolStart.p99)}`,
    `${ms(f.evicted.sentToToolStart.p50)} / ${ms(f.evicted.sentToToolStart.p99)}`,
    `${x(f.ratioP50)} / ${x(f.ratioP99)}`,
    ms(f.replayCostMsP50),
    `${ms(f.cached.sentToReturned.p50)} / ${ms(f.evicted.sentToReturned.p50)}`,
  ];
}

export function evictedSection(e: BenchResults['evicted']): string {
  const config = Object.entries(e.serverDynamicConfig)
    .map(([k, v]) => `\`${k}=${v}\``)
    .join(', ');
  return `A run paused long enough has left the worker's cache; its decision then waits for the worker to fetch the
whole history and replay it. Here a worker whose cache holds two runs (the least the SDK allows) decides, pair by
pair, a run it just paused (cached) and a run of the same size pushed out of its cache by two later ones
(evicted); ${e.sizes.map((s) => `${s.samples} pairs at ${n(s.events)} events`).join(', ')} (fewer than 200 only for the sizes of runs that opt out of continuing as new: every pair replays the size three times), decided by the \`decide\` update, alternating. Runs of a size are copies of
one paused template (the server's reset to its last workflow task), so every sample decides the same history.
Templates pause after automatic \`read_data\` steps (7 events each); the 5,000-event ones are padded with refused
\`decision\` signals (an unknown call id), because 700 steps would pass Temporal's 50 MB history limit with the
transcript as every model call's input, as it was before patch set 31. A run about to wait for people continues as new first once its history
holds 500 events (\`continueAsNew.beforeWaitEvents\`): the runs of 1,000 events and more here set that off, as runs
of older code are, and the row "continued as new" is the default, the same 140 steps paused in the run they
continued as. Our workflow also continues as new when Temporal suggests it (4,096 events by default), so this
scenario has a dev server of its own with ${config} on top of ours. Values in milliseconds.

${table(
  [
    'history',
    'bytes',
    'cached p50 / p99',
    'evicted p50 / p99',
    'evicted ÷ cached p50 / p99',
    'replay cost p50',
    'update answered (cached / evicted) p50',
  ],
  e.sizes
    .map((s) =>
      evictedRow(
        s.continued
          ? `${n(s.events)} events, continued as new before waiting after ${s.automaticSteps} steps (the default)`
          : `${n(s.events)} events (${s.automaticSteps} steps${s.paddingSignals ? ` + ${s.paddingSignals} signals` : ''})`,
        s,
      ),
    )
    .concat(e.floor ? [evictedRow(`floor: a bare workflow waiting for an update (${n(e.floor.events)} events)`, e.floor)] : []),
)}

${
  e.floor
    ? `The last row is the floor: the bare workflow of section 1 (no validation, search attributes or transcript), ${e.floor.samples} pairs
decided the same way by the same worker process with the same two-run cache, after our sizes. Rebuilding it costs
${ms(e.floor.replayCostMsP50)} ms at p50 (${x(e.floor.ratioP50)} its cached decision): that much of a rebuilt run's cost is the SDK's and the
server's, and the rest of ours is our workflow's: a larger history to fetch and decode, and its own start ("Not done
yet" under Findings).

`
    : ''
}${e.failures
    .map(
      (f) => `**At ${n(f.events)} events the measurement failed:** ${f.error}

`,
    )
    .join('')}The span is decision sent → approved tool starts. "Replay cost" is evicted minus cached at p50: the full history
fetch, its decoding and the replay of every workflow task in it.`;
}

export function openaiAgentsSection(r: BenchResults): string {
  const oa = r.decisionLatency.openaiAgents;
  const ours = r.decisionLatency.ours.update;
  const p = r.openaiAgentsPeer;
  return `The human-approval pattern of Temporal's \`@temporalio/openai-agents\` integration, on the same dev server and in
the same worker process as ours (bench/peer/openai-agents/): the model is called through an activity, a tool that
needs approval ends the agent loop with an interruption, the workflow serializes its run state (the
\`RunState.toString()\` step) and waits for an \`approval\` signal, then continues as new with the state and the
decision; the new run restores the state, runs the tool as an activity and calls the model again. **The package
itself is not used**: \`@temporalio/openai-agents\` 1.23.0 pins \`@temporalio/*\` 1.23.0 and \`@openai/agents-core\`
~0.11, and this project runs SDK 1.24 (two SDK versions cannot share one workflow bundle or worker), so its
documented pattern is implemented as written, with no validation, search attributes, audit log, deadline timer or
query views. Its latency samples were interleaved with the other five series of section 1. Milliseconds.

${table(
  ['', 'ours (`decide` update)', 'OpenAI Agents pattern (signal + continue-as-new)', 'ours ÷ it'],
  [
    ['decision sent → tool starts, p50', ms(ours.sentToToolStart.p50), ms(oa.sentToToolStart.p50), x(p.ratios.sentToToolStartP50)],
    ['decision sent → tool starts, p99', ms(ours.sentToToolStart.p99), ms(oa.sentToToolStart.p99), x(p.ratios.sentToToolStartP99)],
    ['decision sent → next model call, p50', ms(ours.sentToNextCall.p50), ms(oa.sentToNextCall.p50), ''],
    ['decision sent → client has the answer, p50', ms(ours.sentToReturned?.p50 ?? NaN), ms(oa.sentToReturned?.p50 ?? NaN), ''],
    ['samples', ours.sentToToolStart.n, oa.sentToToolStart.n, ''],
    [
      'history events for one approval (whole run or chain)',
      r.history.gatedRunUpdate.events,
      `${p.history.events} (${p.history.runs} runs)`,
      x(p.ratios.historyEvents),
    ],
    ['history bytes for one approval', n(r.history.gatedRunUpdate.bytes), n(p.history.bytes), ''],
  ],
)}

A signal returns as soon as the server stored it, an update only after a worker applied it, so "client has the
answer" is not comparable between the two; the tool-start span is.`;
}

export function projectionSection(r: BenchResults, cluster?: ClusterDensityResults): string {
  const p = projection(r, cluster);
  return `What 1,000,000 approvals paused at once, decided at ${n(p.decisionsPerSecond)} per second, would take, from this run's
measurements${cluster ? ', and the storage and server CPU of the cluster run (section 3)' : ''}. Arithmetic on measured inputs, not a measurement; every input is listed.

${table(
  ['input', 'value', 'from'],
  p.inputs.map((i) => [i.name, i.value, i.source]),
)}

${table(
  ['output', 'value', 'how'],
  p.outputs.map((o) => [o.name, o.value, o.how]),
)}

${p.dominant}`;
}

/** How the density table names the server: the dev server of `npm run bench`, or a cluster (bench/cluster-density.ts). */
export interface DensityServer {
  /** The process whose RSS is shown. */
  name: string;
  /** Whose CPU the server's share counts. */
  cpu: string;
  /** What the storage row measures. */
  storage: string;
}

/** Section 3's table, and the cluster density run's. */
export function densityTable(den: BenchResults['density'], server: DensityServer): string {
  return table(
    ['', ''],
    [
      [
        'paused',
        `${den.paused.toLocaleString('en-US')} of ${den.runs.toLocaleString('en-US')} in ${den.pauseSeconds} s (starts took ${den.startSeconds} s)`,
      ],
      [
        'worker RSS, before → all paused (peak)',
        `${mib(den.worker.baselineRssBytes)} → **${mib(den.worker.pausedRssBytes)}** (${mib(den.worker.peakRssBytes)})`,
      ],
      ['worker processes that died and were replaced', `${den.worker.restarts}`],
      ['worker RSS per paused run', kib(den.worker.perPausedRunBytes)],
      [
        'runs in the workflow cache (max)',
        `${den.worker.cachedWorkflows.toLocaleString('en-US')} (${den.worker.maxCachedWorkflows.toLocaleString('en-US')}: \`createWorker\`'s bound, \`HITL_WORKER_MAX_CACHED_RUNS\`)`,
      ],
      ['worker RSS per cached run', kib(den.worker.perCachedRunBytes)],
      [
        `${server.name} RSS, before → all paused (peak)`,
        `${mib(den.devServer.baselineRssBytes)} → ${mib(den.devServer.pausedRssBytes)} (${mib(den.devServer.peakRssBytes)})`,
      ],
      ...(den.devServer.dbFileBytes !== undefined ? [[server.storage, mib(den.devServer.dbFileBytes)]] : []),
      [`CPU per run to pause (worker / ${server.cpu})`, `${den.cpu.workerMsPerPause} / ${den.cpu.serverMsPerPause} ms`],
      [
        'drain: decisions accepted',
        `${den.drain.decisionsPerSecond} per second (${den.drain.decideRetries} retried with the same update id after the server timed out waiting)`,
      ],
      ['drain: runs completed', `${den.drain.completionsPerSecond} per second (${den.drain.seconds} s in all)`],
      [`CPU per decision to completion (worker / ${server.cpu})`, `${den.cpu.workerMsPerDecision} / ${den.cpu.serverMsPerDecision} ms`],
      ...(den.rebuilds
        ? [
            [
              'workflow tasks that rebuilt their run from history, per run (pausing / deciding)',
              `${den.rebuilds.perPausedRun} / ${den.rebuilds.perDecidedRun} (of ${den.rebuilds.drainTasksPerRun} tasks per decided run)`,
            ],
          ]
        : []),
      ['completion', `**${pct(den.completion)}** (${den.completed.toLocaleString('en-US')} completed)`],
    ],
  );
}

/** Section 3's paragraph on the same scenario on a Temporal cluster on PostgreSQL (bench/CLUSTER-DENSITY.md). */
export function clusterDensityParagraph(c: ClusterDensityResults): string {
  const den = c.density;
  return `**On a Temporal cluster on PostgreSQL** (\`npm run bench:cluster-density\`, a run of its own on ${c.startedAt.slice(0, 10)}:
[CLUSTER-DENSITY.md](CLUSTER-DENSITY.md)), ${den.runs.toLocaleString('en-US')} runs paused at once took the worker to
${mib(den.worker.pausedRssBytes)} (peak ${mib(den.worker.peakRssBytes)}), and ${pct(den.completion)} completed. PostgreSQL stored
${kib(c.storage.perPausedRunBytes)} per paused run (history, mutable state, timers, visibility rows, indexes), and the Temporal
server with PostgreSQL used ${den.cpu.serverMsPerPause} ms of CPU per run to pause and ${den.cpu.serverMsPerDecision} ms per decision.`;
}
