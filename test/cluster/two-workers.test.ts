/**
 * The cluster suite's own file (vitest.cluster.config.ts): approvals on a real Temporal cluster on PostgreSQL,
 * served by two worker processes on one task queue.
 * - Faults while approvals wait: one worker is SIGKILLed and PostgreSQL crashes (immediate stop) and restarts;
 *   some approvals time out meanwhile. Then every decision is sent, by update or by signal, some updates twice
 *   with the same update id. Every run must complete, every decision be applied exactly once, and no tool run
 *   twice (the outbox's sends, one line per idempotency key, are counted).
 * - Density: a few hundred runs paused at once, found through SQL visibility by our search attributes, decided
 *   and completed.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
import { decideUpdate, decisionSignal, pendingApprovalsQuery, runStateQuery } from '../../src/contract/messages.js';
import { uniqueName } from '../helpers/temporal.js';
import { waitFor } from '../helpers/history.js';
import { sigkill, spawnWorkerProcess, workerProcesses } from '../helpers/worker-processes.js';

type Run = WorkflowHandle<(input: AgentWorkflowArgs) => Promise<AgentResult>>;

const DENSITY_RUNS = 300;
const FINANCE = { approver: 'fin', groups: ['finance'] };
/**
 * Each run sends one gated email: the outbox records each send with its idempotency key, so a send done twice shows.
 * (Not refunds: an approved refund runs only if its order is as the approvers saw it, so runs refunding one order at
 * once would send each other back to their approvers.)
 */
const email = { toolCalls: [{ id: 'email', name: 'send_email', arguments: { to: 'ada@example.com', subject: 'cluster', body: 'x' } }] };

let dir: string;
let model: ModelServer;
let connection: Connection;
let client: Client;
let outbox: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'hitl-cluster-workers-'));
  model = await startModelServer({
    script: {
      conversations: [
        { match: 'cluster refund', replies: [email, { content: 'email handled' }] },
        { match: 'cluster density', replies: [email, { content: 'email handled' }] },
      ],
    },
  });
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: inject('temporalNamespace') });
  outbox = path.join(dir, 'data', 'outbox.jsonl');
});

afterAll(async () => {
  for (const worker of workerProcesses) worker.kill('SIGKILL');
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

/** Every email waits for finance (a run's policy may only tighten the demo agent's, which gates some emails). */
function start(
  taskQueue: string,
  workflowId: string,
  gate: true | { timeout: string; onTimeout: 'reject' },
  prompt = 'cluster refund',
): Promise<Run> {
  const policy = { approvers: ['finance'], ...(gate === true ? {} : gate) };
  return client.workflow.start<(input: AgentWorkflowArgs) => Promise<AgentResult>>('agentWorkflow', {
    args: [{ agent: 'demo', prompt: `${prompt} ${workflowId}`, approval: { tools: { send_email: policy } } }],
    taskQueue,
    workflowId,
  });
}

/** How many times the run's email was sent. */
const sends = (run: Run) =>
  existsSync(outbox)
    ? readFileSync(outbox, 'utf8')
        .split('\n')
        .filter((line) => line && JSON.parse(line).idempotencyKey === `${run.workflowId}:call-1`).length
    : 0;

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

    for (const run of runs) expect((await run.result()).status).toBe('Completed');
    for (const { run, type } of decided) {
      const { decisions } = await run.query(runStateQuery);
      const applied = decisions.filter((d) => d.id === 'call-1' && d.outcome === 'applied');
      expect(applied.map((d) => d.type)).toEqual([type]);
      expect(sends(run)).toBe(type === 'approve' ? 1 : 0);
    }
    for (const run of timingOut) expect(sends(run)).toBe(0);
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
    expect(runs.filter((run) => sends(run) !== 1).map((run) => run.workflowId)).toEqual([]);
    await waitFor(
      async () => (await count(`TaskQueue = '${queue}' AND HitlStatus = 'Completed'`)) === DENSITY_RUNS,
      60_000,
      `${DENSITY_RUNS} runs completed in visibility`,
      1000,
    );
    await Promise.all(workers.map(sigkill));
  });
});
