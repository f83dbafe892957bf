/**
 * Days-long approvals, tested in seconds on Temporal's time-skipping test server (the Java test server). Time
 * skipping does not advance while the test awaits an update, so decisions here go by signal, and the waiting is
 * `env.sleep`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import proto from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createActivities } from '../src/activities/index.js';
import { defineAgent } from '../src/agents/define-agent.js';
import { agents } from '../src/agents/registry.js';
import { SEARCH_ATTRIBUTE_KEYS } from '../src/contract/search-attributes.js';
import { ensureJavaTestServer } from '../src/dev/java-test-server.js';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import type { AgentWorkflowArgs } from '../src/schemas/agent-workflow-input.js';
import type { AgentResult } from '../src/schemas/run-state.js';
import { createToolImplementations } from '../src/tools/implementations/index.js';
import { openShopDb } from '../src/tools/implementations/shop-db.js';
import { decisionSignal, pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import type { NotificationEvent } from '../src/schemas/notification-event.js';
import { timerSummaries } from './helpers/history.js';

// @temporalio/proto is CommonJS: Node's ESM loader exposes it as a default export only.
const { temporal } = proto;

const DAY = 24 * 3600 * 1000;
const refund = { toolCalls: [{ id: 'refund', name: 'process_refund', arguments: { orderId: '1234', amount: 50000 } }] };

/** Refunds wait for finance; after 4 hours managers may decide them too, after a day directors. */
const escalating = defineAgent({
  name: 'escalating',
  instructions: 'You are a support agent.',
  tools: ['process_refund'],
  approval: {
    tools: {
      process_refund: {
        approvers: ['finance'],
        timeout: '3d',
        escalate: [
          { after: '4h', approvers: ['managers'] },
          { after: '1d', approvers: ['directors'] },
        ],
      },
    },
  },
});

let env: TestWorkflowEnvironment;
let webhook: Server;
const notified: NotificationEvent[] = [];
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
        { match: 'escalate me', replies: [refund, { content: 'refunded by a manager' }] },
        { match: 'escalate an edit', replies: [refund, { content: 'edited by a manager' }] },
      ],
    },
  });
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      notified.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  dataDir = mkdtempSync(path.join(tmpdir(), 'hitl-skip-'));
  tools = createToolImplementations({ dataDir });
}, 180_000);

afterAll(async () => {
  await env?.teardown();
  await model?.close();
  webhook?.close();
  tools?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function withWorker<T>(taskQueue: string, fn: () => Promise<T>): Promise<T> {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: createActivities({
      agents: { ...agents, escalating },
      tools: tools.byName,
      model: { baseURL: model.baseURL, apiKey: 'sk-test', defaultModel: 'scripted-model' },
      // Only the escalating agent's runs notify (runs record whether webhooks are configured when they start).
      webhooks: { urls: taskQueue === 'escalation' ? [`http://127.0.0.1:${(webhook.address() as AddressInfo).port}/`] : [] },
    }),
  });
  return worker.runUntil(fn);
}

function start(taskQueue: string, prompt: string, agent = 'demo') {
  const input: AgentWorkflowArgs = { agent, prompt };
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

describe('escalation tiers with time skipping', () => {
  it('opens a waiting call to managers after 4 hours, under a named timer, with a notification; a manager decides', async () => {
    await withWorker('escalation', async () => {
      const handle = await start('escalation', 'escalate me', 'escalating');
      const pending = await untilPending(handle);
      const shownAt = Date.parse(pending.requestedAt);
      expect(pending).toMatchObject({
        approvers: ['finance'],
        escalations: [
          { at: new Date(shownAt + 4 * 3600_000).toISOString(), approvers: ['managers'], reached: false },
          { at: new Date(shownAt + DAY).toISOString(), approvers: ['directors'], reached: false },
        ],
      });
      // A manager is not an approver yet: the signal is refused (and audited), nothing runs.
      await handle.signal(decisionSignal, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'mia', groups: ['managers'] });

      await env.sleep('5 hours');
      const [escalated] = await handle.query(pendingApprovalsQuery);
      expect(escalated).toMatchObject({
        approvers: ['finance', 'managers'],
        escalations: [{ reached: true }, { reached: false }],
      });
      const { decisions } = await handle.query(runStateQuery);
      expect(decisions.map((d) => [d.outcome, d.refusal?.code ?? d.event])).toEqual([
        ['refused', 'approver_not_allowed'],
        ['noted', 'escalated'],
      ]);
      expect(Date.parse(decisions[1]!.at) - shownAt).toBeGreaterThanOrEqual(4 * 3600_000);
      expect(decisions[1]!.message).toBe('Escalated (tier 1): managers may decide it too.');

      await handle.signal(decisionSignal, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'mia', groups: ['managers'] });
      expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'refunded by a manager' });
      // The Temporal UI names each step of the ladder; the second never fired (the call was decided first).
      expect((await timerSummaries(handle)).filter((t) => t.startsWith('escalation'))).toEqual([
        'escalation · process_refund · call-1 · to managers',
        'escalation · process_refund · call-1 · to directors',
      ]);
      const types = notified.filter((e) => e.workflowId === handle.workflowId).map((e) => e.type);
      expect(types).toEqual(expect.arrayContaining(['approval.requested', 'approval.escalated', 'approval.decided']));
      expect(notified.find((e) => e.type === 'approval.escalated')!.approval.approvers).toEqual(['finance', 'managers']);
    });
  });

  it('lets a manager it reached edit the refund too, as finance may', async () => {
    await withWorker('escalation', async () => {
      const handle = await start('escalation', 'escalate an edit', 'escalating');
      await untilPending(handle);
      await env.sleep('5 hours');
      const edit = { id: 'call-1', type: 'edit' as const, args: { orderId: '1234', amount: 40000 } };
      await handle.signal(decisionSignal, { decisions: [edit], approver: 'mia', groups: ['managers'] });
      expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'edited by a manager' });
      const { decisions, messages } = await handle.query(runStateQuery);
      expect(decisions.map((d) => [d.outcome, d.type ?? d.event, d.approver])).toEqual([
        ['noted', 'escalated', undefined],
        ['applied', 'edit', 'mia'],
      ]);
      const result = messages.find((m) => m.role === 'tool')!.content as string;
      expect(result).toMatch(/^\(A human reviewer edited the arguments before it ran: \{"orderId":"1234","amount":40000\}\)/);
    });
  });
});
