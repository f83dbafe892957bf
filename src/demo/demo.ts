/**
 * `npm run demo [-- --auto]`: one refund that needs a finance approval, end to end, offline. It starts what it
 * needs (a dev server unless TEMPORAL_ADDRESS is set, a worker, the scripted model unless OPENAI_API_KEY is set),
 * shows the pending request, lets you decide at the terminal (or decides itself with --auto), then shows the
 * outcome and the run in the Temporal UI.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { HitlClient } from '../client/hitl-client.js';
import { style, table } from '../client/cli/output.js';
import { dataConverterFromEnv } from '../codec/data-converter.js';
import { readEnvConfig } from '../config.js';
import { connectClient } from '../connection/connect.js';
import { connectWorker } from '../connection/connect-worker.js';
import { devServerTarget, resolveTemporalTarget } from '../connection/temporal-target.js';
import { startDevServer } from '../dev/dev-server.js';
import { openShopDb } from '../tools/implementations/shop-db.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { createWorkerFromEnv } from '../worker.js';
import { modelForDemo } from './offline-model.js';

const auto = process.argv.includes('--auto');
const step = (text: string) => console.log(style.bold(`\n▸ ${text}`));

async function decideAtTerminal(hitl: HitlClient, workflowId: string, call: PendingApproval): Promise<void> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (;;) {
      const answer = (await rl.question('Approve (a), edit the amount (e) or reject (r)? ')).trim().toLowerCase();
      const as = { approver: 'you', groups: ['finance'], argsHash: call.argsHash };
      if (answer === 'a') return void (await hitl.approve(workflowId, call.id, as));
      if (answer === 'r')
        return void (await hitl.reject(workflowId, call.id, {
          ...as,
          message: (await rl.question('Reason for the model: ')) || undefined,
        }));
      if (answer === 'e') {
        const amount = Number(await rl.question('Refund amount instead: '));
        if (Number.isFinite(amount) && amount > 0)
          return void (await hitl.edit(workflowId, call.id, { ...as, args: { ...call.args, amount } }));
        console.log('That is not a positive number.');
      }
    }
  } finally {
    rl.close();
  }
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  let config = readEnvConfig();
  let target = resolveTemporalTarget(config);
  step(target.addressConfigured ? `Using Temporal at ${target.address}` : 'Starting a Temporal dev server (in memory)…');
  const server = target.addressConfigured ? undefined : await startDevServer({ forceStart: true });
  if (server) target = devServerTarget(server.address, server.namespace);
  const model = await modelForDemo(config);
  config = model.config;
  console.log(model.server ? 'Model: the scripted demo model (set OPENAI_API_KEY for a real one).' : `Model: ${config.OPENAI_MODEL}`);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'hitl-demo-'));
  config = { ...config, HITL_DATA_DIR: dataDir };
  // On a server others use, a task queue of its own: `npm start`'s worker on the shared queue would otherwise take
  // the demo's tasks, against its own shop, and the demo would report a shop the refund never touched.
  if (target.addressConfigured) {
    config = { ...config, TEMPORAL_TASK_QUEUE: `hitl-demo-${randomUUID().slice(0, 8)}` };
    console.log(`Task queue: ${config.TEMPORAL_TASK_QUEUE} (the demo's own, beside any other worker on that server).`);
  }
  const wait = { waitMs: config.HITL_CONNECT_TIMEOUT_MS };
  const nativeConnection = await connectWorker(target, wait);
  step('Starting the worker (bundling the workflow)…');
  const { worker, close: closeTools } = await createWorkerFromEnv(config, nativeConnection, target.namespace);
  const running = worker.run();
  const connection = await connectClient(target, wait);
  const hitl = new HitlClient(
    new Client({ connection, namespace: target.namespace, dataConverter: dataConverterFromEnv(config) }),
    config.TEMPORAL_TASK_QUEUE,
  );

  let ok = false;
  try {
    const prompt = 'Refund order 1234 in full: the parcel never arrived.';
    step(`Starting a run of the demo agent: "${prompt}"`);
    const { workflowId } = await hitl.startRun({ agent: 'demo', prompt, requestedBy: 'demo-customer' });

    let pending: PendingApproval[] = [];
    for (let i = 0; i < 240 && pending.length === 0; i++) {
      pending = await hitl.pending(workflowId);
      if (pending.length === 0) await sleep(250);
    }
    const call = pending[0];
    if (!call) throw new Error('The run never asked for an approval.');
    step('The run is paused, waiting for a human:');
    console.log(
      table(
        ['call', 'tool', 'arguments', 'approvers', 'deadline'],
        [[call.id, call.toolName, JSON.stringify(call.args), call.approvers?.join(', '), call.deadline]],
      ),
    );
    console.log(call.description);

    if (auto) {
      step('--auto: approving as finance');
      await hitl.approve(workflowId, call.id, {
        approver: 'demo-finance',
        groups: ['finance'],
        argsHash: call.argsHash,
        message: 'approved by npm run demo --auto',
      });
    } else {
      await decideAtTerminal(hitl, workflowId, call);
    }

    const result = await hitl.result(workflowId);
    step(`Outcome: ${result.status}`);
    console.log(result.output);
    const state = await hitl.getRun(workflowId);
    const toolResult = state.messages.filter((m) => m.role === 'tool').at(-1);
    console.log(`Tool result the model saw: ${toolResult?.role === 'tool' ? toolResult.content : '(none)'}`);
    const shop = openShopDb(path.join(dataDir, 'shop.db'));
    console.log(
      table(
        ['order', 'refunded', 'status'],
        shop
          .prepare("SELECT id, refunded, status FROM orders WHERE id = '1234'")
          .all()
          .map((r: any) => [r.id, r.refunded, r.status]),
      ),
    );
    shop.close();
    console.log(
      table(
        ['#', 'type', 'approver', 'via'],
        result.decisions.map((d) => [d.seq, d.type, d.approver, d.via]),
      ),
    );
    const ui = server?.uiUrl ?? config.TEMPORAL_UI_URL;
    step(`See the run in the Temporal UI: ${ui}/namespaces/${target.namespace}/workflows/${workflowId}`);
    if (server) console.log('(the demo server stops when the demo ends; `npm start` keeps one running)');
    ok = result.status === 'Completed';
  } finally {
    worker.shutdown();
    await running.catch(() => {});
    await connection.close();
    await nativeConnection.close();
    await closeTools();
    await model.server?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(style.red(err instanceof Error ? err.message : String(err)));
  process.exit(1);
});
