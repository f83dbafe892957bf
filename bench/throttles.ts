/**
 * `npm run bench:throttles` — what each server setting in src/dev/server-dynamic-config.ts buys. For each
 * configuration a fresh dev server (in memory, headless) and an in-process worker run three sequential loads, each
 * leaning on one of the history service's task queues:
 *   - steps: the floor's trivial activities in sequence (transfer queue): ms per activity;
 *   - timers: 1 ms timers in sequence (timer queue): ms per timer (about a second: the timer queue reads ahead
 *     in windows of history.timerProcessorMaxTimeShift, 1 s);
 *   - visibility: a signal, the search-attribute upsert it causes, and a count query polled until the upsert is
 *     visible (visibility queue, and the frontend's visibility rate limit): ms per visible upsert.
 * Configurations: Temporal's defaults, ours, and ours with one setting at a time back at Temporal's default.
 *
 *   npm run bench:throttles
 *   options: --steps N (activities: 2 × N)  --timers N  --upserts N  --rounds N (best round kept per configuration)
 *            --config 'name:KEY=VALUE,KEY=VALUE' (extra, over ours; repeatable)  --json FILE
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { startDevServer } from '../src/dev/dev-server.js';
import {
  DEV_SERVER_DYNAMIC_CONFIG,
  SERVER_SETTINGS,
  TEMPORAL_DEFAULT_DYNAMIC_CONFIG,
  type DynamicConfigValue,
} from '../src/dev/server-dynamic-config.js';
import { runCommand } from './command.js';
import { uniqueName, waitUntil } from './context.js';
import { quietLogger } from './experiments.js';
import { floorActivities } from './floor/activities.js';
import { BENCH_DIR } from './ipc.js';
import { round } from './stats.js';
import { throttleUpsertSignal } from './throttles/workflows.js';

const { values: args } = parseArgs({
  options: {
    steps: { type: 'string', default: '30' },
    timers: { type: 'string', default: '5' },
    upserts: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    config: { type: 'string', multiple: true, default: [] },
    json: { type: 'string' },
  },
});
const steps = Number(args.steps);
const timers = Number(args.timers);
const upserts = Number(args.upserts);
const rounds = Number(args.rounds);

interface Configuration {
  name: string;
  dynamicConfig: Record<string, DynamicConfigValue>;
}

function parseConfigArg(arg: string): Configuration {
  const [name, pairs] = arg.split(':', 2) as [string, string | undefined];
  if (!pairs) throw new Error(`--config ${arg}: expected name:KEY=VALUE,KEY=VALUE`);
  const extra = Object.fromEntries(
    pairs.split(',').map((pair) => {
      const [key, value] = pair.split('=', 2) as [string, string | undefined];
      if (value === undefined) throw new Error(`--config ${arg}: ${pair} is not KEY=VALUE`);
      return [key, JSON.parse(value) as DynamicConfigValue];
    }),
  );
  return { name, dynamicConfig: { ...DEV_SERVER_DYNAMIC_CONFIG, ...extra } };
}

const ours: Configuration = { name: 'ours (DEV_SERVER_DYNAMIC_CONFIG)', dynamicConfig: DEV_SERVER_DYNAMIC_CONFIG };
const configurations: Configuration[] = [
  { name: "Temporal's defaults", dynamicConfig: TEMPORAL_DEFAULT_DYNAMIC_CONFIG },
  ours,
  // Leave one out: what each setting adds to the others.
  ...SERVER_SETTINGS.map((s) => ({
    name: `ours, but ${s.key}=${s.temporalDefault}`,
    dynamicConfig: { ...DEV_SERVER_DYNAMIC_CONFIG, [s.key]: s.temporalDefault },
  })),
  ...args.config!.map(parseConfigArg),
];

interface Measurement {
  msPerActivity: number;
  msPerTimer: number;
  msPerVisibleUpsert: number;
}

async function measure(client: Client, taskQueue: string): Promise<Measurement> {
  const timed = async (run: () => Promise<unknown>) => {
    const t0 = performance.now();
    await run();
    return performance.now() - t0;
  };
  const stepsMs = await timed(() =>
    client.workflow.execute('floorStepsWorkflow', { taskQueue, workflowId: uniqueName('throttle-steps'), args: [steps] }),
  );
  const timersMs = await timed(() =>
    client.workflow.execute('throttleTimersWorkflow', { taskQueue, workflowId: uniqueName('throttle-timers'), args: [timers] }),
  );
  const workflowId = uniqueName('throttle-visibility');
  const handle = await client.workflow.start('throttleVisibilityWorkflow', { taskQueue, workflowId, args: [upserts] });
  const visibleMs = await timed(async () => {
    for (let i = 1; i <= upserts; i++) {
      await handle.signal(throttleUpsertSignal, i);
      const query = `WorkflowId = '${workflowId}' AND HitlPendingCount = ${i}`;
      await waitUntil(async () => (await client.workflow.count(query)).count === 1, 30_000, `upsert ${i} visible`, 5);
    }
  });
  await handle.result();
  return {
    msPerActivity: round(stepsMs / (2 * steps), 1),
    msPerTimer: round(timersMs / timers, 1),
    msPerVisibleUpsert: round(visibleMs / upserts, 1),
  };
}

async function runConfiguration(configuration: Configuration, workflowBundle: { code: string }): Promise<Measurement> {
  const server = await startDevServer({ forceStart: true, uiPort: false, dynamicConfig: configuration.dynamicConfig, progress: () => {} });
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: server.namespace });
  const taskQueue = uniqueName('throttles');
  try {
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace: server.namespace,
      taskQueue,
      workflowBundle,
      activities: floorActivities,
    });
    try {
      return await worker.runUntil(async () => {
        // Warm-up: the bundle loads into the worker's first workflow context.
        await client.workflow.execute('floorStepsWorkflow', { taskQueue, workflowId: uniqueName('throttle-warmup'), args: [1] });
        let best: Measurement | undefined;
        for (let r = 0; r < rounds; r++) {
          const m = await measure(client, taskQueue);
          best = best
            ? {
                msPerActivity: Math.min(best.msPerActivity, m.msPerActivity),
                msPerTimer: Math.min(best.msPerTimer, m.msPerTimer),
                msPerVisibleUpsert: Math.min(best.msPerVisibleUpsert, m.msPerVisibleUpsert),
              }
            : m;
        }
        return best!;
      });
    } finally {
      await nativeConnection.close();
    }
  } finally {
    await connection.close();
    await server.stop();
  }
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: path.join(BENCH_DIR, 'throttles', 'workflows.ts'),
    logger: quietLogger,
  });
  const rows: Array<{ configuration: string; dynamicConfig: Record<string, DynamicConfigValue> } & Measurement> = [];
  console.log(`${2 * steps} activities, ${timers} timers, ${upserts} visible upserts in sequence; best of ${rounds} round(s)\n`);
  console.log('| configuration | ms per activity | ms per timer | ms per visible upsert |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const configuration of configurations) {
    const m = await runConfiguration(configuration, workflowBundle);
    rows.push({ configuration: configuration.name, dynamicConfig: configuration.dynamicConfig, ...m });
    console.log(`| ${configuration.name} | ${m.msPerActivity} | ${m.msPerTimer} | ${m.msPerVisibleUpsert} |`);
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify({ steps, timers, upserts, rounds, rows }, null, 2)}\n`);
}

runCommand(main);
