/**
 * Days-long approvals, tested in seconds on Temporal's time-skipping test server (the Java test server). Time
 * skipping does not advance while the test awaits an update, so decisions here go by signal, and the waiting is
 * `env.sleep`.
 */
import proto from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createActivities } from '../src/activities/index.js';
import { agents } from '../src/agents/registry.js';
import { SEARCH_ATTRIBUTE_KEYS } from '../src/contract/search-attributes.js';
import { ensureJavaTestServer } from '../src/dev/java-test-server.js';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import type { AgentWorkflowArgs } from '../src/schemas/agent-workflow-input.js';
import type { AgentResult } from '../src/schemas/run-state.js';
import { createToolImplementations } from '../src/tools/implementations/index.js';
import { openShopDb } from '../src/tools/implementations/shop-db.js';
import { decisionSignal, pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';

// @temporalio/proto is CommonJS: Node's ESM loader exposes it as a default export only.
const { temporal } = proto;

const DAY = 24 * 3600 * 1000;
const refund = { toolCalls: [{ id: 'refund', name: 'process_refund', arguments: { orderId: '1234', amount: 50000 } }] };

let env: TestWorkflowEnvironment;
let model: ModelServer;
let dataDir: string;
let tools: ReturnType<typeof createToolImplementations>;

beforeAll(async () => {
  const server = await ensureJavaTestServer();
  // The SDK gives the Java server 5 s to start listening; a busy machine can take longer, so try a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: server } } });
      break;
    } catch (err) {
      if (attempt === 6 || !String(err).includes('did not start within')) throw err;
    }
  }
  // The test server knows no custom search attributes until they are registered, and the workflow upserts ours.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, temporal.api.enums.v1.IndexedValueType[`INDEXED_VALUE_TYPE_${key.type}`]]),
    ),
  });
  model = await startModelServer({
    script: {
      conversations: [
        { match: 'nobody answers', replies: [refund, { content: 'gave up waiting' }] },
        { match: 'answered on day two', replies: [refund, { content: 'refunded' }] },
      ],
    },
  });
  dataDir = mkdtempSync(path.join(tmpdir(), 'hitl-skip-'));
  tools = createToolImplementations({ dataDir });
}, 180_000);

afterAll(async () => {
  await env?.teardown();
  await model?.close();
  tools?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function withWorker<T>(taskQueue: string, fn: () => Promise<T>): Promise<T> {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: createActivities({
      agents,
      tools: tools.byName,
      model: { baseURL: model.baseURL, apiKey: 'sk-test', defaultModel: 'scripted-model' },
      webhooks: { urls: [] },
    }),
  });
  return worker.runUntil(fn);
}

function start(taskQueue: string, prompt: string) {
  const input: AgentWorkflowArgs = { agent: 'demo', prompt };
  return env.client.workflow.start<(input: AgentWorkflowArgs) => Promise<AgentResult>>('agentWorkflow', {
    args: [input],
    taskQueue,
    workflowId: `skip-${taskQueue}`,
  });
}

async function untilPending(handle: Awaited<ReturnType<typeof start>>) {
  for (;;) {
    const pending = await handle.query(pendingApprovalsQuery);
    if (pending.length) return pending[0]!;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('days-long approvals with time skipping', () => {
  it('fires the 3-day timeout: the call does not run and the model is told', async () => {
    await withWorker('timeout', async () => {
      const handle = await start('timeout', 'nobody answers the refund');
      const pending = await untilPending(handle);
      expect(Date.parse(pending.deadline) - Date.parse(pending.requestedAt)).toBe(3 * DAY);
      expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'gave up waiting' });
      const { messages, decisions } = await handle.query(runStateQuery);
      expect(messages.find((m) => m.role === 'tool')?.content).toBe(
        'No decision arrived within 3 days: the approval timed out and process_refund did not run.',
      );
      expect(Date.parse(decisions[0]!.at) - Date.parse(pending.requestedAt)).toBeGreaterThanOrEqual(3 * DAY);
    });
    const shop = openShopDb(path.join(dataDir, 'shop.db'));
    expect(shop.prepare("SELECT COUNT(*) AS n FROM refunds WHERE order_id = '1234'").get()).toEqual({ n: 0 });
    shop.close();
  });

  it('honours an approval sent on day 2', async () => {
    await withWorker('day-two', async () => {
      const handle = await start('day-two', 'answered on day two');
      const pending = await untilPending(handle);
      await env.sleep('2 days');
      await handle.signal(decisionSignal, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'fiona', groups: ['finance'] });
      expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'refunded' });
      const { messages, decisions } = await handle.query(runStateQuery);
      expect(messages.find((m) => m.role === 'tool')?.content).toBe('{"orderId":"1234","refunded":50000,"remaining":25000}');
      const waited = Date.parse(decisions[0]!.at) - Date.parse(pending.requestedAt);
      expect(waited).toBeGreaterThanOrEqual(2 * DAY);
      expect(waited).toBeLessThan(3 * DAY);
    });
  });
});
