/**
 * OpenTelemetry, end to end, with an in-memory span exporter: an HTTP request that starts a run is the root of one
 * trace that holds the client's start, the workflow, and the model and tool activities (the gated tool's after an
 * approval given over HTTP, whose own trace holds the update). The worker runs a bundle with the tracing
 * interceptors, as a traced worker bundles itself.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from '../src/api/listen.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { readEnvConfig } from '../src/config.js';
import { startTracing, stopTracing, tracingClientInterceptors } from '../src/telemetry/tracing.js';
import { bundleWorkflows, TRACING_WORKFLOW_INTERCEPTOR_MODULES } from '../src/workflow-bundle.js';
import { startTestApi } from './helpers/api.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const exporter = new InMemorySpanExporter();
const TOKENS = { 'alice-token-0123456789': { approver: 'alice', groups: ['finance'] } };
let h: Harness;
let api: Listening;

beforeAll(async () => {
  const tracing = await startTracing(readEnvConfig({}), 'hitl-test', { spanProcessor: new SimpleSpanProcessor(exporter) });
  expect(tracing).toBeDefined();
  const { code } = await bundleWorkflows({
    workflowInterceptorModules: TRACING_WORKFLOW_INTERCEPTOR_MODULES,
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
  });
  const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-traced-')), 'workflows.js');
  writeFileSync(bundlePath, code);
  h = await startHarness({
    bundlePath,
    script: {
      conversations: [
        {
          match: 'traced refund',
          replies: [
            { toolCalls: [{ id: 'm1', name: 'read_data', arguments: { table: 'orders', where: { id: '1234' } } }] },
            { toolCalls: [{ id: 'm2', name: 'process_refund', arguments: { orderId: '1234', amount: 75000 } }] },
            { content: 'refunded' },
          ],
        },
      ],
    },
  });
  // The API's client, as a traced process builds it (src/client/connection.ts).
  const traced = new Client({
    connection: h.temporal.client.connection,
    namespace: h.temporal.namespace,
    interceptors: { workflow: tracingClientInterceptors() },
  });
  api = await startTestApi(h, { tokens: TOKENS, hitl: new HitlClient(traced, h.taskQueue), log: () => {} });
});

afterAll(async () => {
  await api?.close();
  await h?.close();
  await stopTracing();
});

const post = (route: string, body: unknown) =>
  fetch(`${api.url}${route}`, {
    method: 'POST',
    headers: { authorization: 'Bearer alice-token-0123456789', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: ReadableSpan[], name: string) => {
  const found = named(spans, name);
  expect(
    found.map((s) => s.name),
    `one span named ${name} in ${spans.map((s) => s.name).join(', ')}`,
  ).toHaveLength(1);
  return found[0]!;
};

describe('tracing', () => {
  it('links the HTTP request, the workflow, and the model and tool activities in one trace', async () => {
    const started = await post('/api/runs', { agent: 'demo', prompt: 'traced refund of order 1234' });
    expect(started.status).toBe(201);
    const { workflowId } = (await started.json()) as { workflowId: string };
    const handle = h.temporal.client.workflow.getHandle(workflowId);
    await waitFor(async () => (await handle.query<{ id: string }[]>('pendingApprovals')).length === 1);
    const approvalId = encodeApprovalId({ workflowId, callId: 'call-2' });
    const approved = await post(`/api/approvals/${approvalId}/approve`, { comment: 'traced' });
    expect(approved.status).toBe(200);
    await expect(handle.result()).resolves.toMatchObject({ status: 'Completed' });
    // Workflow spans reach the exporter through the worker's sink when the workflow task completes.
    await waitFor(() => exporter.getFinishedSpans().some((s) => s.name === 'RunWorkflow:agentWorkflow'), 30_000, 'the workflow span');

    const spans = exporter.getFinishedSpans();
    const http = one(spans, 'POST /api/runs');
    const trace = spans.filter((s) => s.spanContext().traceId === http.spanContext().traceId);
    const start = one(trace, 'StartWorkflow:agentWorkflow');
    const run = one(trace, 'RunWorkflow:agentWorkflow');
    expect(start.parentSpanId).toBe(http.spanContext().spanId);
    expect(run.parentSpanId).toBe(start.spanContext().spanId);

    // Three model calls and two tools (read_data runs as a local activity), each scheduled by the workflow and run
    // by the worker under the span that scheduled it.
    const children = (parent: ReadableSpan, name: string) =>
      named(trace, name).filter((s) => s.parentSpanId === parent.spanContext().spanId);
    const scheduled = [...children(run, 'StartActivity:callModel'), ...children(run, 'StartActivity:executeTool')];
    expect(scheduled.map((s) => s.name).sort()).toEqual([
      'StartActivity:callModel',
      'StartActivity:callModel',
      'StartActivity:callModel',
      'StartActivity:executeTool',
      'StartActivity:executeTool',
    ]);
    for (const schedule of scheduled) {
      const ran = trace.filter((s) => s.name.startsWith('RunActivity:') && s.parentSpanId === schedule.spanContext().spanId);
      expect(ran.length, `${schedule.name} ran`).toBeGreaterThanOrEqual(1);
    }

    // The approval is a trace of its own: the request, the update it sends, and the workflow handling it.
    const approval = one(spans, 'POST /api/approvals/:id/approve');
    const approvalTrace = spans.filter((s) => s.spanContext().traceId === approval.spanContext().traceId);
    expect(approvalTrace.map((s) => s.name)).toEqual(expect.arrayContaining(['StartWorkflowUpdate:decide', 'HandleUpdate:decide']));
    expect(http.attributes['http.response.status_code']).toBe(201);
  });
});
