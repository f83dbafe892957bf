/** Durable waiting: deadlines and their onTimeout modes, reminders and webhooks, and a worker restart mid-wait. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from '../src/activities/notify.js';
import { decodeApprovalId, encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import type { NotificationEvent } from '../src/schemas/notification-event.js';
import { runStateQuery } from '../src/contract/messages.js';
import { decide, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { timerSummaries, waitFor } from './helpers/history.js';

const SECRET = 'a-webhook-secret-for-tests';
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const writeNote = (id: string, file: string) => [{ toolCalls: [call(id, 'write_file', { path: file, content: file })] }, { content: 'ok' }];

interface Received {
  event: NotificationEvent;
  signatureValid: boolean;
}
const received: Received[] = [];
let webhook: Server;
let failingHits = 0;
let failing: Server;
let h: Harness;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)),
  );
}

beforeAll(async () => {
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const header = String(req.headers['x-hitl-signature'] ?? '');
      const timestamp = Number(/t=(\d+)/.exec(header)?.[1]);
      received.push({ event: JSON.parse(body), signatureValid: header === signPayload(SECRET, timestamp, body) });
      res.writeHead(204).end();
    });
  });
  failing = createServer((_req, res) => {
    failingHits++;
    res.writeHead(503).end();
  });
  const [goodUrl, badUrl] = [await listen(webhook), await listen(failing)];
  h = await startHarness({
    recordAs: 'approval-timeouts',
    // Approving on timeout loosens the demo's policy, which a run may do only when its agent allows any change.
    agents: { lenient: defineAgent({ ...demoAgent, name: 'lenient', approval: { ...demoAgent.approval, runOverrides: 'any' } }) },
    webhooks: { urls: [goodUrl, badUrl], secret: SECRET },
    script: {
      conversations: [
        { match: 'timeout reject', replies: writeNote('tr', 'tr.txt') },
        { match: 'timeout approve', replies: writeNote('ta', 'ta.txt') },
        { match: 'timeout fail', replies: writeNote('tf', 'tf.txt') },
        { match: 'notify me', replies: writeNote('nm', 'nm.txt') },
        { match: 'survive a restart', replies: writeNote('sr', 'sr.txt') },
        {
          match: 'coordinate with webhooks',
          replies: [{ toolCalls: [call('askw', 'ask_researcher', { prompt: 'research: a webhooked note' })] }, { content: 'done' }],
        },
        { match: 'research: a webhooked note', replies: writeNote('wn', 'wn.txt') },
      ],
    },
  });
});
afterAll(async () => {
  await h?.close();
  webhook?.close();
  failing?.close();
});

const file = (name: string) => path.join(h.dataDir, 'workspace', name);
const shortTimeout = (onTimeout: 'reject' | 'approve' | 'fail') => ({ tools: { write_file: { timeout: '2s', onTimeout } } });

describe('timeouts', () => {
  it('reject (the default): tells the model the approval timed out, worded unlike a human rejection', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'timeout reject', approval: shortTimeout('reject') });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    expect(existsSync(file('tr.txt'))).toBe(false);
    expect(await toolMessages(handle)).toEqual([
      ['tr', 'No decision arrived within 2 seconds: the approval timed out and write_file did not run.'],
    ]);
    expect(await timerSummaries(handle)).toEqual(['approval · write_file · call-1', 'last notifications before closing']);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions).toEqual([
      expect.objectContaining({
        via: 'timeout',
        type: 'timeout',
        outcome: 'applied',
        id: 'call-1',
        message: 'no decision within the timeout; onTimeout: reject',
      }),
    ]);
  });

  it('approve: runs the call when the deadline passes', async () => {
    const handle = await h.start({ agent: 'lenient', prompt: 'timeout approve', approval: shortTimeout('approve') });
    await handle.result();
    expect(readFileSync(file('ta.txt'), 'utf8')).toBe('ta.txt');
    expect(await toolMessages(handle)).toEqual([['ta', 'Wrote 6 bytes to ta.txt.']]);
  });

  it('fail: fails the run with a clear error', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'timeout fail', approval: shortTimeout('fail') });
    const error = await handle.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(error.cause).toMatchObject({
      type: 'ApprovalTimeoutError',
      message: 'No decision arrived for write_file (call-1) within 2s; the policy says onTimeout: fail.',
    });
    expect(existsSync(file('tf.txt'))).toBe(false);
    expect(await handle.query(runStateQuery)).toMatchObject({ status: 'Failed', pending: [] });
  });
});

describe('notifications', () => {
  it('posts signed events for requested, reminder and decided; a failing webhook never holds the run', async () => {
    const handle = await h.start({
      agent: 'demo',
      prompt: 'notify me',
      approval: { tools: { write_file: { timeout: '1m', reminders: ['59s'] } } },
    });
    await waitForPending(handle, 1);
    await waitFor(() => received.some((r) => r.event.workflowId === handle.workflowId && r.event.type === 'approval.reminder'));
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'alice' });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    await waitFor(() => received.filter((r) => r.event.workflowId === handle.workflowId).length === 3);

    const mine = received.filter((r) => r.event.workflowId === handle.workflowId);
    expect(mine.map((r) => r.event.type)).toEqual(['approval.requested', 'approval.reminder', 'approval.decided']);
    expect(mine.every((r) => r.signatureValid)).toBe(true);
    expect(mine[0]!.event).toMatchObject({ agent: 'demo', approval: { id: 'call-1', toolName: 'write_file', args: { path: 'nm.txt' } } });
    // Every event names the approval as lists and the API take it.
    const approvalId = encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1' });
    expect(mine.map((r) => r.event.approvalId)).toEqual([approvalId, approvalId, approvalId]);
    expect(mine[2]!.event.decision).toMatchObject({ type: 'approve', approver: 'alice', outcome: 'applied' });
    expect(new Set(mine.map((r) => r.event.id)).size).toBe(3);
    expect(failingHits).toBeGreaterThan(0);
  });
});

describe('notifications of a sub-agent', () => {
  it('name its call as the top-level run shows it, and that id decides it', async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate with webhooks' });
    // The run names its calls call-1, call-2, …: the sub-agent's workflow id is its call's, under the parent's.
    const childId = `${parent.workflowId}/call-1`;
    await waitFor(() => received.some((r) => r.event.workflowId === childId && r.event.type === 'approval.requested'));
    const { event } = received.find((r) => r.event.workflowId === childId)!;
    expect(event).toMatchObject({ agent: 'researcher', approval: { id: 'call-1', toolName: 'write_file' } });
    expect(decodeApprovalId(event.approvalId)).toEqual({ workflowId: parent.workflowId, callId: 'call-1/call-1' });
    const hitl = new HitlClient(h.temporal.client, h.taskQueue);
    await waitFor(async () => (await hitl.findApproval(event.approvalId).catch(() => undefined))?.toolName === 'write_file');
    await decide(parent, { decisions: [{ id: 'call-1/call-1', type: 'approve' }], approver: 'alice' });
    expect(await parent.result()).toMatchObject({ status: 'Completed' });
    expect(readFileSync(file('wn.txt'), 'utf8')).toBe('wn.txt');
  });
});

describe('worker restart', () => {
  it('a run waiting for approval survives the worker being replaced', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'survive a restart' });
    const [pending] = await waitForPending(handle, 1);
    await h.restartWorker();
    expect(await waitForPending(handle, 1)).toEqual([pending]);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }] });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    expect(readFileSync(file('sr.txt'), 'utf8')).toBe('sr.txt');
  });
});
