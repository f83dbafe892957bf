/**
 * What production watches, scraped for real: the worker as its own process (`npm run worker`) serving the SDK's
 * Prometheus endpoint with our `hitl_*` metrics, and the API's `/metrics`, `/healthz` and `/readyz`. A dev server of
 * its own, so the counts are this file's alone, and so it can be stopped to see readiness fail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMetrics } from '../src/api/api-metrics.js';
import { createApiApp } from '../src/api/app.js';
import { listen, type Listening } from '../src/api/listen.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { countPendingApprovals } from '../src/client/pending-count.js';
import { connectClient } from '../src/connection/connect.js';
import { devServerTarget } from '../src/connection/temporal-target.js';
import { startDevServer, type DevServer } from '../src/dev/dev-server.js';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import { waitFor } from './helpers/history.js';

const TASK_QUEUE = 'production-ops';
const TOKEN = 'alice-token-0123456789';
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let server: DevServer;
let model: ModelServer;
let worker: ChildProcess;
let workerOutput = '';
let metricsAddress: string;
let hitl: HitlClient;
let api: Listening;
const dataDir = mkdtempSync(path.join(tmpdir(), 'hitl-ops-'));

beforeAll(async () => {
  [server, model] = await Promise.all([
    startDevServer({ uiPort: false, forceStart: true }),
    startModelServer({
      script: {
        conversations: [
          {
            match: 'ops approve',
            replies: [{ toolCalls: [call('a1', 'process_refund', { orderId: '1234', amount: 20000 })] }, { content: 'done' }],
          },
          { match: 'ops timeout', replies: [{ toolCalls: [call('t1', 'cancel_order', { orderId: '1235' })] }, { content: 'done' }] },
          {
            match: 'ops failure',
            replies: [{ toolCalls: [call('f1', 'process_refund', { orderId: '9999', amount: 5 })] }, { content: 'done' }],
          },
        ],
      },
    }),
  ]);
  metricsAddress = `127.0.0.1:${await getPort()}`;
  worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    env: {
      ...process.env,
      TEMPORAL_CONFIG_FILE: path.join(dataDir, 'no-config.toml'),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'scripted-model',
      HITL_DATA_DIR: dataDir,
      HITL_WORKER_METRICS_ADDRESS: metricsAddress,
      // One run in memory at a time: the others are evicted and rebuilt from history, which must count nothing twice.
      HITL_WORKER_MAX_CACHED_RUNS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.on('data', (d) => (workerOutput += d));
  worker.stderr!.on('data', (d) => (workerOutput += d));
  const connection = await connectClient(devServerTarget(server.address, server.namespace), { waitMs: 10_000 });
  hitl = new HitlClient(new Client({ connection, namespace: server.namespace }), TASK_QUEUE);
  api = await listen(
    createApiApp({
      hitl,
      tokens: { [TOKEN]: { approver: 'alice', groups: ['finance'] } },
      fourEyes: false,
      bodyLimitBytes: 65_536,
      temporalUiUrl: 'http://ui.test',
      namespace: server.namespace,
      metrics: new ApiMetrics(() => countPendingApprovals(hitl.temporal)),
      log: () => {},
    }),
  );
  // The worker bundles the workflows first: a minute or more on a loaded machine.
  await waitFor(() => workerOutput.includes('worker polling'), 240_000, 'the worker to start');
}, 300_000);

afterAll(async () => {
  worker?.kill('SIGKILL');
  await api?.close();
  await hitl?.temporal.connection.close();
  await model?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Prometheus' text format: the value of the series with this name and (at least) these labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}
const scrape = async (url: string) => (await fetch(url)).text();
const workerMetrics = () => scrape(`http://${metricsAddress}/metrics`);
const apiMetrics = () => scrape(`${api.url}/metrics`);
const approve = (workflowId: string, callId: string) =>
  fetch(`${api.url}/api/approvals/${encodeApprovalId({ workflowId, callId })}/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: '{}',
  });

describe('metrics', () => {
  it(
    'counts approvals requested, decided and timed out, time to decision, tokens and tool failures; the API the pending',
    { timeout: 180_000 },
    async () => {
      expect(sample(await apiMetrics(), 'hitl_approvals_pending')).toBe(0);
      // Two finance approvers must approve: one decision, counted once, when the second completes the quorum.
      const approved = await hitl.startRun({
        agent: 'demo',
        prompt: 'ops approve order 1234',
        approval: { tools: { process_refund: { approvers: ['finance'], requiredApprovals: 2 } } },
      });
      await waitFor(async () => (await hitl.pending(approved.workflowId)).length === 1);
      // Visibility lags the run a moment, and the API counts at most every 10 s.
      await waitFor(async () => sample(await apiMetrics(), 'hitl_approvals_pending') === 1, 30_000, 'one pending in /metrics');
      const timedOut = await hitl.startRun({
        agent: 'demo',
        prompt: 'ops timeout of order 1235',
        approval: { tools: { cancel_order: { timeout: '5s', onTimeout: 'reject' } } },
      });
      await waitFor(async () => (await hitl.pending(timedOut.workflowId)).length === 1);
      await hitl.approve(approved.workflowId, 'call-1', { approver: 'fay', groups: ['finance'] });
      // The first run was evicted for the second: its decision replays it from history first.
      expect((await approve(approved.workflowId, 'call-1')).status).toBe(200);
      const failing = await hitl.startRun({ agent: 'demo', prompt: 'ops failure' });
      for (const run of [approved, timedOut, failing]) await hitl.result(run.workflowId);

      // The SDK exports on its own schedule: wait for the last counts to show.
      await waitFor(
        async () => sample(await workerMetrics(), 'hitl_approvals_timed_out_total', { tool: 'cancel_order', decision: 'reject' }) === 1,
        30_000,
        'the timeout in the worker metrics',
      );
      const text = await workerMetrics();
      // A run was rebuilt from history (a cache miss after an eviction) and still counted once.
      expect(sample(text, 'temporal_sticky_cache_miss', { task_queue: TASK_QUEUE })).toBeGreaterThanOrEqual(1);
      const scope = { namespace: server.namespace, taskQueue: TASK_QUEUE };
      expect(sample(text, 'hitl_approvals_requested_total', { ...scope, tool: 'process_refund', workflowType: 'agentWorkflow' })).toBe(1);
      expect(sample(text, 'hitl_approvals_requested_total', { tool: 'cancel_order' })).toBe(1);
      expect(sample(text, 'hitl_approvals_decided_total', { ...scope, tool: 'process_refund', decision: 'approve' })).toBe(1); // not 2
      expect(sample(text, 'hitl_approvals_decided_total', { tool: 'cancel_order' })).toBeUndefined();
      expect(sample(text, 'hitl_approval_decision_seconds_count', { tool: 'process_refund', decision: 'approve' })).toBe(1);
      expect(sample(text, 'hitl_approval_decision_seconds_bucket', { tool: 'process_refund', decision: 'approve', le: '+Inf' })).toBe(1);
      expect(sample(text, 'hitl_approval_decision_seconds_sum', { tool: 'process_refund', decision: 'approve' })).toBeGreaterThan(0);
      expect(
        sample(text, 'hitl_model_tokens_total', { ...scope, kind: 'prompt', model: 'scripted-model', activityType: 'callModel' }),
      ).toBeGreaterThan(0);
      expect(sample(text, 'hitl_model_tokens_total', { kind: 'completion', model: 'scripted-model' })).toBeGreaterThan(0);
      expect(sample(text, 'hitl_tool_failures_total', { ...scope, tool: 'process_refund', kind: 'refused' })).toBe(1);
      // The SDK's own metrics on the same endpoint.
      expect(text).toMatch(/^temporal_workflow_completed\{/m);

      const fromApi = await apiMetrics();
      expect(sample(fromApi, 'hitl_api_requests_total', { method: 'POST', route: '/api/approvals/:id/approve', status: '200' })).toBe(1);
      expect(sample(fromApi, 'hitl_api_request_duration_seconds_count', { method: 'GET', route: '/metrics' })).toBeGreaterThan(0);
      expect(fromApi).toMatch(/^hitl_api_process_resident_memory_bytes /m);
      await waitFor(async () => sample(await apiMetrics(), 'hitl_approvals_pending') === 0, 30_000, 'nothing pending in /metrics');
    },
  );
});

describe('health', () => {
  it('/healthz answers while the process is up; /readyz and the API only while Temporal answers', { timeout: 120_000 }, async () => {
    const get = async (route: string) => {
      const response = await fetch(`${api.url}${route}`);
      return { status: response.status, body: (await response.json()) as { ok: boolean; temporal?: string } };
    };
    expect(await get('/healthz')).toEqual({ status: 200, body: { ok: true } });
    expect(await get('/readyz')).toEqual({ status: 200, body: { ok: true, temporal: 'reachable' } });

    await server.stop();
    const started = Date.now();
    const notReady = await get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.body.ok).toBe(false);
    // The status, not the client's message: anyone may ask, and that names Temporal's address.
    expect(notReady.body.temporal).toMatch(/^not ready within 3s: (gRPC status \d+( \([A-Z_]+\))?|no answer)$/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await get('/healthz')).toEqual({ status: 200, body: { ok: true } });
    // A call that needs Temporal says it is away, and when to try again, rather than "something went wrong".
    const away = await fetch(`${api.url}/api/runs/some-run`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toBe('5');
    expect(((await away.json()) as { error: { code: string } }).error.code).toBe('temporal_unavailable');
    // Unknown (NaN) while Temporal is away, once the last count (at most 10 s old) has expired; no scrape hangs.
    await waitFor(async () => Number.isNaN(sample(await apiMetrics(), 'hitl_approvals_pending')), 30_000, 'the pending count to go');
  });
});
