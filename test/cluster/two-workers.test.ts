/**
 * The cluster suite's own file (vitest.cluster.config.ts): approvals on a real Temporal cluster on PostgreSQL,
 * served by two worker processes on one task queue.
 * - Faults while approvals wait: one worker is SIGKILLed and PostgreSQL crashes (immediate stop) and restarts;
 *   some approvals time out meanwhile. Then every decision is sent, by update or by signal, some updates twice
 *   with the same update id. Every run must complete, every decision be applied exactly once, and no tool run
 *   twice (the shop's refunds, one row per idempotency key, are counted).
 * - Density: a few hundred runs paused at once, found through SQL visibility by our search attributes, decided
 *   and completed.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { restartPostgres } from '../../src/dev/postgres.js';
import { startModelServer, type ModelServer } from '../../src/model-server/server.js';
import type { AgentWorkflowArgs } from '../../src/schemas/agent-workflow-input.js';
import type { DecisionType } from '../../src/schemas/decision.js';
import type { AgentResult } from '../../src/schemas/run-state.js';
import { openShopDb, type ShopDb } from '../../src/tools/implementations/shop-db.js';
import { decideUpdate, decisionSignal, pendingApprovalsQuery, runStateQuery } from '../../src/contract/messages.js';
import { uniqueName } from '../helpers/temporal.js';
import { waitFor } from '../helpers/history.js';
import { sigkill, spawnWorkerProcess, workerProcesses } from '../helpers/worker-processes.js';

type Run = WorkflowHandle<(input: AgentWorkflowArgs) => Promise<AgentResult>>;

const DENSITY_RUNS = 300;
const FINANCE = { approver: 'fin', groups: ['finance'] };
// Order 1238 holds 300: 8 refunds of 1 in the fault test, then the density run's refunds of 0.5.
const refund = (amount: number) => ({ toolCalls: [{ id: 'refund', name: 'process_refund', arguments: { orderId: '1238', amount } }] });

let dir: string;
let model: ModelServer;
let connection: Connection;
let client: Client;
let shop: ShopDb;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'hitl-cluster-workers-'));
  model = await startModelServer({
    script: {
      conversations: [
        { match: 'cluster refund', replies: [refund(1), { content: 'refund handled' }] },
        { match: 'cluster density', replies: [refund(0.5), { content: 'refund handled' }] },
      ],
    },
  });
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: inject('temporalNamespace') });
  shop = openShopDb(path.join(dir, 'data', 'shop.db'));
});

afterAll(async () => {
  for (const worker of workerProcesses) worker.kill('SIGKILL');
  shop?.close();
  await connection?.close();
  await model?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function spawnWorker(taskQueue: string): Promise<ChildProcess> {
  return spawnWorkerProcess({
    address: inject('temporalAddress'),
    taskQueue,
    modelBaseURL: model.baseURL,
    dataDir: path.join(dir, 'data'),
    bundlePath: inject('workflowBundlePath'),
  });
}

/** Every refund waits for finance (a run's policy may only tighten the demo agent's, whose refunds finance decides). */
function start(
  taskQueue: string,
  workflowId: string,
  gate: true | { timeout: string; onTimeout: 'reject' },
  prompt = 'cluster refund',
): Promise<Run> {
  const policy = { approvers: ['finance'], ...(gate === true ? {} : gate) };
  return client.workflow.start<(input: AgentWorkflowArgs) => Promise<AgentResult>>('agentWorkflow', {
    args: [{ agent: 'demo', prompt: `${prompt} ${workflowId}`, approval: { tools: { process_refund: policy } } }],
    taskQueue,
    workflowId,
  });
}

const refundRows = (run: Run) =>
  (shop.prepare('SELECT COUNT(*) AS n FROM refunds WHERE idempotency_key = ?').get(`${run.workflowId}:call-1`) as { n: number }).n;

async function workflowTaskIdentities(runs: Run[]): Promise<Set<string>> {
  const histories = await Promise.all(runs.map((run) => run.fetchHistory()));
  return new Set(histories.flatMap((h) => (h.events ?? []).flatMap((e) => e.workflowTaskStartedEventAttributes?.identity ?? [])));
}

const count = async (query: string) => (await client.workflow.count(query)).count;

describe('a Temporal cluster on PostgreSQL with two worker processes', () => {
  it('loses nothing when a worker is SIGKILLed and PostgreSQL crashes while approvals wait', { timeout: 300_000 }, async () => {
    const queue = uniqueName('cluster-faults');
    const workers = await Promise.all([spawnWorker(queue), spawnWorker(queue)]);
    const decided: { run: Run; type: DecisionType; by: 'update' | 'update twice' | 'signal' }[] = [];
    const timingOut: Run[] = [];
    for (let i = 0; i < 16; i++) {
      const run = await start(queue, `${queue}-${i}`, true);
      decided.push({ run, type: i % 2 === 0 ? 'approve' : 'reject', by: (['update', 'update twice', 'signal'] as const)[i % 3]! });
    }
    for (let i = 0; i < 4; i++) timingOut.push(await start(queue, `${queue}-timeout-${i}`, { timeout: '15s', onTimeout: 'reject' }));
    const runs = [...decided.map((d) => d.run), ...timingOut];
    await waitFor(
      async () => (await Promise.all(runs.map((r) => r.query(pendingApprovalsQuery)))).every((p) => p.length === 1),
      120_000,
      'every run waiting for its approval',
    );
    // Both processes took workflow tasks (a worker's identity is pid@host), so the killed one held runs in its cache.
    const identities = await workflowTaskIdentities(runs);
    expect(identities.size).toBe(2);

    // The faults, while every approval waits.
    await sigkill(workers[0]!);
    restartPostgres(inject('clusterPostgres')!, 'immediate');

    // The decisions, to a cluster that just recovered and a worker that must take over the killed one's runs.
    await Promise.all(
      decided.map(async ({ run, type, by }) => {
        const decision = { decisions: [{ id: 'call-1', type }], ...FINANCE };
        if (by === 'signal') return run.signal(decisionSignal, decision);
        const updateId = `decide-${run.workflowId}`;
        await run.executeUpdate(decideUpdate, { args: [decision], updateId });
        // The same update again (a client retrying after a lost answer): Temporal answers it, nothing is applied twice.
        if (by === 'update twice') await run.executeUpdate(decideUpdate, { args: [decision], updateId });
      }),
    );
    // A replacement for the killed worker: two processes again.
    workers[0] = await spawnWorker(queue);

    for (const run of runs) expect((await run.result()).status).toBe('completed');
    for (const { run, type } of decided) {
      const { decisions } = await run.query(runStateQuery);
      const applied = decisions.filter((d) => d.id === 'call-1' && d.outcome === 'applied');
      expect(applied.map((d) => d.type)).toEqual([type]);
      expect(refundRows(run)).toBe(type === 'approve' ? 1 : 0);
    }
    for (const run of timingOut) expect(refundRows(run)).toBe(0);
    await Promise.all(workers.map(sigkill));
  });

  it(`pauses ${DENSITY_RUNS} runs at once, finds them through SQL visibility, and completes them all`, { timeout: 600_000 }, async () => {
    const queue = uniqueName('cluster-density');
    const workers = await Promise.all([spawnWorker(queue), spawnWorker(queue)]);
    const limit = pLimit(20);
    const runs = await Promise.all(
      Array.from({ length: DENSITY_RUNS }, (_, i) => limit(() => start(queue, `${queue}-${i}`, true, 'cluster density'))),
    );
    await waitFor(
      async () => (await count(`TaskQueue = '${queue}' AND HitlStatus = 'AwaitingApproval'`)) === DENSITY_RUNS,
      300_000,
      `${DENSITY_RUNS} runs awaiting approval in visibility`,
      1000,
    );
    await Promise.all(
      runs.map((run) =>
        limit(() =>
          run.executeUpdate(decideUpdate, {
            args: [{ decisions: [{ id: 'call-1', type: 'approve' }], ...FINANCE }],
            updateId: `decide-${run.workflowId}`,
          }),
        ),
      ),
    );
    const results = await Promise.all(runs.map((run) => run.result()));
    expect(results.filter((r) => r.status !== 'Completed')).toEqual([]);
    expect(runs.filter((run) => refundRows(run) !== 1).map((run) => run.workflowId)).toEqual([]);
    await waitFor(
      async () => (await count(`TaskQueue = '${queue}' AND HitlStatus = 'Completed'`)) === DENSITY_RUNS,
      60_000,
      `${DENSITY_RUNS} runs completed in visibility`,
      1000,
    );
    await Promise.all(workers.map(sigkill));
  });
});
