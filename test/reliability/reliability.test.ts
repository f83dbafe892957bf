/**
 * Faults on purpose, with real processes and SIGKILL: workers killed while runs wait, after a tool's side effect,
 * and during a model call; the dev server killed and restarted on its SQLite file (in the cluster suite:
 * PostgreSQL under the Temporal server crashed and restarted). Then decisions are sent and every run must finish
 * correctly. Counted: runs lost, decisions lost, rejected calls executed, duplicate side effects — all must be 0.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js';
import { restartPostgres } from '../../src/dev/postgres.js';
import { startModelServer, type ModelServer } from '../../src/model-server/server.js';
import type { AgentWorkflowArgs } from '../../src/schemas/agent-workflow-input.js';
import type { AgentResult } from '../../src/schemas/run-state.js';
import { openShopDb, type ShopDb } from '../../src/tools/implementations/shop-db.js';
import { decideUpdate, decisionSignal, pendingApprovalsQuery, runStateQuery } from '../../src/contract/messages.js';
import { waitFor } from '../helpers/history.js';
import { sigkill, spawnWorkerProcess, workerProcesses } from '../helpers/worker-processes.js';

// @temporalio/proto is CommonJS: Node's ESM loader exposes it as a default export only.
const { temporal } = proto;

const STARTED = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;

type Run = WorkflowHandle<(input: AgentWorkflowArgs) => Promise<AgentResult>>;
interface Sent {
  handle: Run;
  type: 'approve' | 'reject';
}

const FINANCE = { approver: 'fiona', groups: ['finance'] };
const refundOf = (orderId: string) => ({ toolCalls: [{ id: 'refund', name: 'process_refund', arguments: { orderId, amount: 1 } }] });
const refund = refundOf('1238');
/**
 * Runs waiting at once refund different orders: an approved refund runs only if its order is as the approvers saw
 * it (the refund's precheck), so two approved refunds of one order would send the second back to its approvers.
 */
const ORDERS = ['1234', '1235', '1237', '1238'];
const tally = { runs: 0, runsLost: 0, decisions: 0, decisionsLost: 0, rejected: 0, rejectedExecuted: 0, effects: 0, duplicateEffects: 0 };
const covered: Record<string, number> = {};

let dir: string;
let dbFile: string;
let port: number;
/** The dev server this file starts and kills; none in the cluster suite, whose server runs on PostgreSQL. */
let server: DevServer | undefined;
let address: string;
const clusterPostgres = inject('clusterPostgres');
let model: ModelServer;
let connection: Connection;
let client: Client;
let shop: ShopDb;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'hitl-reliability-'));
  dbFile = path.join(dir, 'temporal.db');
  port = await getPort();
  if (clusterPostgres) address = inject('temporalAddress');
  else {
    server = await startDevServer({ forceStart: true, dbFile, port, uiPort: false });
    address = server.address;
  }
  model = await startModelServer({
    script: {
      conversations: [
        { match: '/^reliability refund.* of order (\\d+)$/', replies: [refundOf('{{1}}'), { content: 'refund handled' }] },
        { match: 'reliability slow model', replies: [{ ...refund, delayMs: 4000 }, { content: 'slow handled' }] },
      ],
    },
  });
  connection = await Connection.connect({ address });
  client = new Client({ connection, namespace: inject('temporalNamespace') });
  shop = openShopDb(path.join(dir, 'data', 'shop.db'));
}, 120_000);

afterAll(async () => {
  for (const worker of workerProcesses) worker.kill('SIGKILL');
  shop?.close();
  await connection?.close();
  await model?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A worker process on `taskQueue`; resolves once it polls. */
function spawnWorker(taskQueue: string, fault?: string): Promise<ChildProcess> {
  return spawnWorkerProcess({
    address,
    taskQueue,
    modelBaseURL: model.baseURL,
    dataDir: path.join(dir, 'data'),
    bundlePath: inject('workflowBundlePath'),
    fault,
  });
}

function start(taskQueue: string, prompt: string, gated: boolean): Promise<Run> {
  tally.runs++;
  return client.workflow.start<(input: AgentWorkflowArgs) => Promise<AgentResult>>('agentWorkflow', {
    // The demo gates refunds over 10000 only; a run may tighten that (every refund, by finance), never loosen it.
    args: [{ agent: 'demo', prompt, ...(gated && { approval: { tools: { process_refund: { approvers: ['finance'] } } } }) }],
    taskQueue,
    workflowId: `${taskQueue}-${tally.runs}`,
  });
}

const refundRows = (handle: Run) =>
  (shop.prepare('SELECT COUNT(*) AS n FROM refunds WHERE idempotency_key = ?').get(`${handle.workflowId}:call-1`) as { n: number }).n;

/** Every run finished; every accepted decision applied; rejected calls left no effect; approved ones exactly one. */
async function account(runs: Run[], sent: Sent[]): Promise<void> {
  for (const handle of runs) {
    const result = await handle.result().catch(() => undefined);
    if (result?.status !== 'Completed') tally.runsLost++;
    const decided = sent.find((s) => s.handle.workflowId === handle.workflowId);
    const rows = refundRows(handle);
    if (decided) {
      tally.decisions++;
      const { decisions } = await handle.query(runStateQuery);
      if (!decisions.some((d) => d.outcome === 'applied' && d.id === 'call-1' && d.type === decided.type)) tally.decisionsLost++;
    }
    if (decided?.type === 'reject') {
      tally.rejected++;
      if (rows > 0) tally.rejectedExecuted++;
    } else {
      tally.effects++;
      if (rows > 1) tally.duplicateEffects++;
      if (rows === 0) tally.runsLost++;
    }
  }
}

const pendingEverywhere = (runs: Run[]) =>
  waitFor(
    async () => (await Promise.all(runs.map((r) => r.query(pendingApprovalsQuery)))).every((p) => p.length === 1),
    60_000,
    'every run waiting',
  );

describe('reliability under faults', () => {
  it('the worker is killed while runs wait for approval', { timeout: 120_000 }, async () => {
    const queue = 'waiting';
    const first = await spawnWorker(queue);
    const runs = await Promise.all([0, 1, 2, 3].map((i) => start(queue, `reliability refund ${i} of order ${ORDERS[i]}`, true)));
    await pendingEverywhere(runs);
    await sigkill(first);
    const sent: Sent[] = [
      { handle: runs[0]!, type: 'approve' },
      { handle: runs[1]!, type: 'reject' },
      { handle: runs[2]!, type: 'approve' },
      { handle: runs[3]!, type: 'reject' },
    ];
    // Signals while no worker runs at all: the server keeps them until one comes back.
    await sent[1]!.handle.signal(decisionSignal, { decisions: [{ id: 'call-1', type: 'reject' }], ...FINANCE });
    await sent[2]!.handle.signal(decisionSignal, { decisions: [{ id: 'call-1', type: 'approve' }], ...FINANCE });
    await spawnWorker(queue);
    await sent[0]!.handle.executeUpdate(decideUpdate, { args: [{ decisions: [{ id: 'call-1', type: 'approve' }], ...FINANCE }] });
    await sent[3]!.handle.executeUpdate(decideUpdate, { args: [{ decisions: [{ id: 'call-1', type: 'reject' }], ...FINANCE }] });
    await account(runs, sent);
    covered['worker killed while waiting'] = runs.length;
  });

  it('the worker is killed during a tool activity, after its side effect', { timeout: 180_000 }, async () => {
    const queue = 'after-effect';
    const runs = await Promise.all([0, 1].map((i) => start(queue, `reliability refund after effect ${i} of order 1238`, false)));
    let kills = 0;
    // Workers that die after a first attempt's effect, until one lives: each retry must find the effect done.
    const done = Promise.all(runs.map((r) => r.result().catch(() => undefined)));
    for (;;) {
      const worker = await spawnWorker(queue, kills < 2 ? 'kill-after-effect:process_refund' : undefined);
      const exited = new Promise<'exited'>((resolve) => worker.once('exit', () => resolve('exited')));
      if ((await Promise.race([exited, done.then(() => 'done' as const)])) === 'done') break;
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(1);
    await account(runs, []);
    covered[`killed after the effect (${kills} kills)`] = runs.length;
  });

  it('the worker is killed during a model call', { timeout: 120_000 }, async () => {
    const queue = 'model-call';
    const first = await spawnWorker(queue);
    const runs = await Promise.all([0, 1].map((i) => start(queue, `reliability slow model ${i}`, false)));
    await waitFor(
      async () =>
        (await Promise.all(runs.map((r) => r.describe()))).every((d) =>
          (d.raw.pendingActivities ?? []).some((a) => a.activityType?.name === 'callModel' && a.state === STARTED),
        ),
      30_000,
      'model calls in flight',
    );
    await sigkill(first);
    await spawnWorker(queue);
    await account(runs, []);
    covered['worker killed during a model call'] = runs.length;
  });

  const storeFault = clusterPostgres
    ? 'PostgreSQL under the Temporal server crashes and restarts while runs wait'
    : 'the dev server is killed and restarted on its SQLite file while runs wait';
  it(storeFault, { timeout: 120_000 }, async () => {
    const queue = 'server-restart';
    await spawnWorker(queue);
    const runs = await Promise.all([0, 1, 2].map((i) => start(queue, `reliability refund server ${i} of order ${ORDERS[i]}`, true)));
    await pendingEverywhere(runs);
    if (clusterPostgres) restartPostgres(clusterPostgres, 'immediate');
    else {
      await server!.kill();
      server = await startDevServer({ forceStart: true, dbFile, port, uiPort: false });
    }
    await pendingEverywhere(runs);
    const sent: Sent[] = runs.map((handle, i) => ({ handle, type: i === 1 ? 'reject' : 'approve' }));
    for (const { handle, type } of sent) {
      await handle.executeUpdate(decideUpdate, { args: [{ decisions: [{ id: 'call-1', type }], ...FINANCE }] });
    }
    await account(runs, sent);
    covered[clusterPostgres ? 'PostgreSQL crashed and restarted' : 'dev server killed and restarted'] = runs.length;

    console.log(
      `reliability: runs lost ${tally.runsLost}/${tally.runs}, decisions lost ${tally.decisionsLost}/${tally.decisions}, ` +
        `rejected calls executed ${tally.rejectedExecuted}/${tally.rejected}, duplicate side effects ${tally.duplicateEffects}/${tally.effects}; ` +
        `runs per scenario: ${Object.entries(covered)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
    );
    expect(tally).toMatchObject({ runsLost: 0, decisionsLost: 0, rejectedExecuted: 0, duplicateEffects: 0 });
    expect(Object.keys(covered)).toHaveLength(4);
  });
});
