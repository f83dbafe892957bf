/** The typed client against the real dev server and worker. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { decodeApprovalId, encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import type { Listening } from '../src/api/listen.js';
import { DecisionRefusedError, RunNotFoundError } from '../src/errors.js';
import type { RunStreamItem } from '../src/schemas/run-event.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { startUnansweringRun } from './helpers/unanswering-run.js';
import { readSse } from './helpers/sse.js';

const agent = defineAgent({ ...demoAgent, name: 'clientdemo' });
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let h: Harness;
let hitl: HitlClient;
let api: Listening;
const TOKEN = 'client-token-0123456789';
beforeAll(async () => {
  h = await startHarness({
    agents: { clientdemo: agent },
    script: {
      conversations: [
        {
          match: 'client two calls',
          replies: [
            { toolCalls: [call('k1', 'write_file', { path: 'k1.txt', content: 'k' }), call('k2', 'cancel_order', { orderId: '1235' })] },
            { content: 'finished' },
          ],
        },
        {
          match: 'client four helpers',
          replies: [
            {
              toolCalls: [
                call('h1', 'write_file', { path: 'h1.txt', content: '1' }),
                call('h2', 'write_file', { path: 'h2.txt', content: '2' }),
                call('h3', 'write_file', { path: 'h3.txt', content: '3' }),
                call('h4', 'write_file', { path: 'h4.txt', content: '4' }),
              ],
            },
            { content: 'helpers done' },
          ],
        },
        { match: 'client terminated', replies: [{ toolCalls: [call('t1', 'cancel_order', { orderId: '1236' })] }, { content: 'never' }] },
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
  api = await startTestApi(h, { tokens: { [TOKEN]: { approver: 'alice', groups: ['finance'] } } });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

describe('HitlClient', () => {
  it('starts a run, finds it waiting across runs, decides idempotently, and watches it to the end', async () => {
    const { workflowId: runId } = await hitl.startRun({ agent: 'clientdemo', prompt: 'client two calls', requestedBy: 'carol' });
    await waitFor(async () => (await hitl.pending(runId)).length === 2);
    const items: RunStreamItem[] = [];
    const watching = (async () => {
      for await (const item of hitl.subscribe(runId)) items.push(item);
    })();
    const events = () => items.flatMap((i) => (i.topic === 'events' ? [i.event] : []));
    await waitFor(() => events().filter((e) => e.type === 'approval_requested').length === 2);

    await waitFor(async () => (await hitl.listWaiting({ agent: 'clientdemo' })).some((w) => w.workflowId === runId));
    const waiting = (await hitl.listWaiting({ agent: 'clientdemo', tool: 'cancel_order' })).filter((w) => w.workflowId === runId);
    expect(waiting).toEqual([
      expect.objectContaining({
        id: 'call-2',
        toolName: 'cancel_order',
        workflowId: runId,
        agent: 'clientdemo',
        userPrompt: 'client two calls',
        requestedBy: 'carol',
      }),
    ]);
    expect(decodeApprovalId(waiting[0]!.approvalId)).toEqual({ workflowId: runId, callId: 'call-2' });
    expect(await hitl.findApproval(waiting[0]!.approvalId)).toEqual(waiting[0]);

    const runs = await hitl.listRuns({ status: 'AwaitingApproval', agent: 'clientdemo' });
    expect(runs.find((r) => r.workflowId === runId)).toMatchObject({
      agent: 'clientdemo',
      status: 'AwaitingApproval',
      pendingCount: 2,
      prompt: 'client two calls',
    });

    const first = await hitl.approve(runId, 'call-1', { approver: 'dan', updateId: 'same-update' });
    const again = await hitl.approve(runId, 'call-1', { approver: 'dan', updateId: 'same-update' });
    expect(again).toEqual(first);
    await expect(hitl.approve(runId, 'call-1', { approver: 'dan' })).rejects.toSatisfy(
      (e) => e instanceof DecisionRefusedError && e.code === 'already_decided',
    );
    await hitl.reject(runId, 'call-2', { approver: 'dan', message: 'keep it' });
    expect(await hitl.result(runId)).toMatchObject({ status: 'Completed', output: 'finished' });
    await watching;

    // Offsets count up from 0 without gaps: every event, in the order it happened.
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    const told = events().map(
      (e) => `${e.type} ${'id' in e ? e.id : 'entry' in e ? e.entry.id : 'approval' in e ? e.approval.id : 'status' in e ? e.status : ''}`,
    );
    expect(told.slice(0, 8)).toEqual([
      'status_changed Running',
      'step_started ',
      'model_replied ',
      'tool_call_proposed call-1',
      'tool_call_proposed call-2',
      'tool_call_gated call-1',
      'tool_call_gated call-2',
      'approval_requested call-1',
    ]);
    // write_file's description comes from the tool (an activity), so call-2 may be announced before it; the tools
    // run while the other decision comes.
    expect(told.slice(8, -3).sort()).toEqual(
      [
        'approval_requested call-2',
        'status_changed AwaitingApproval',
        'approval_decided call-1',
        'tool_call_started call-1',
        'approval_decided call-2',
        'status_changed Running',
        'tool_call_finished call-1',
        'tool_call_finished call-2',
      ].sort(),
    );
    const at = (line: string) => told.indexOf(line);
    expect(at('approval_decided call-1')).toBeLessThan(at('tool_call_started call-1'));
    expect(at('tool_call_started call-1')).toBeLessThan(at('tool_call_finished call-1'));
    expect(at('approval_decided call-2')).toBeLessThan(at('tool_call_finished call-2'));
    expect(told.slice(-3)).toEqual(['step_started ', 'model_replied ', 'run_finished Completed']);
    expect(events().at(-1)).toMatchObject({ type: 'run_finished', status: 'Completed', output: 'finished', steps: 2 });
    expect(events().find((e) => e.type === 'approval_decided' && e.entry.id === 'call-2')).toMatchObject({
      entry: { type: 'reject', approver: 'dan', message: 'keep it' },
    });

    const state = await hitl.getRun(runId);
    expect(state.status).toBe('Completed');
    const tail = await hitl.getRun(runId, { messagesFrom: state.messages.length - 1, decisionsFrom: 1 });
    expect(tail.messages).toEqual([state.messages.at(-1)]);
    expect(tail.decisions).toEqual([state.decisions[1]]);
  });

  it('has a helper for each decision type', async () => {
    const { workflowId: runId } = await hitl.startRun({ agent: 'clientdemo', prompt: 'client four helpers' });
    await waitFor(async () => (await hitl.pending(runId)).length === 4);
    const [h1] = await hitl.pending(runId);
    await hitl.approve(runId, 'call-1', { argsHash: h1!.argsHash, message: 'fine', always: false });
    await hitl.edit(runId, 'call-2', { args: { path: 'h2.txt', content: 'edited' } });
    await hitl.reject(runId, 'call-3', { message: 'no' });
    await hitl.respond(runId, 'call-4', 'answered by a person');
    await hitl.result(runId);
    const tools = (await hitl.getRun(runId)).messages.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
    expect(tools).toEqual([
      'Wrote 1 bytes to h1.txt.',
      '(A human reviewer edited the arguments before it ran: {"path":"h2.txt","content":"edited"})\nWrote 6 bytes to h2.txt.',
      'Rejected by a human reviewer; write_file did not run. Reason: no',
      'answered by a person',
    ]);
    // The run has finished, and it had decided that call: the refusal says so, as it would have while it ran.
    const alreadyDecided = (e: unknown) => e instanceof DecisionRefusedError && e.code === 'already_decided';
    await expect(hitl.approve(runId, 'call-1')).rejects.toSatisfy(alreadyDecided);
    // With no worker to replay the run for a query too: a completed run's result holds its audit log.
    await h.restartWorker({ whileStopped: () => expect(hitl.approve(runId, 'call-2')).rejects.toSatisfy(alreadyDecided) });
  });

  it('says how Temporal ended a run it terminated while it waited, with nothing pending, over the client and HTTP', async () => {
    const { workflowId: runId } = await hitl.startRun({ agent: 'clientdemo', prompt: 'client terminated' });
    await waitFor(async () => (await hitl.pending(runId)).length === 1);
    const approvalId = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    await waitFor(async () => (await hitl.listWaiting({ workflowId: runId })).length === 1);
    const get = async (path: string) => {
      const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return { status: response.status, body: (await response.json()) as any };
    };
    expect((await get(`/api/approvals?workflowId=${runId}`)).body).toHaveLength(1);

    await h.temporal.client.workflow.getHandle(runId).terminate('terminated by the test');

    // The run still answers queries from its last state (waiting, call-1 pending): Temporal's word wins.
    const state = await hitl.getRun(runId);
    expect(state).toMatchObject({ status: 'Terminated', pending: [] });
    // What the run said of its history stands.
    expect(state.messages.some((m) => m.role === 'user' && m.content === 'client terminated')).toBe(true);
    expect(state.policyOutcomes).toEqual([expect.objectContaining({ id: 'call-1', toolName: 'cancel_order', gated: true })]);
    expect(await hitl.pending(runId)).toEqual([]);
    await expect(hitl.findApproval(approvalId)).rejects.toThrow(`run ${runId} has ended (Terminated)`);
    await waitFor(async () => (await hitl.listWaiting({ workflowId: runId })).length === 0);
    await expect(hitl.approve(runId, 'call-1')).rejects.toSatisfy((e) => e instanceof DecisionRefusedError && e.code === 'run_closed');

    expect(await get(`/api/runs/${runId}`)).toMatchObject({ status: 200, body: { status: 'Terminated', pending: [] } });
    expect(await get(`/api/approvals/${approvalId}`)).toMatchObject({ status: 404, body: { error: { code: 'approval_not_found' } } });
    expect(await get(`/api/approvals?workflowId=${runId}`)).toEqual({ status: 200, body: [] });
    expect((await hitl.listRuns({ agent: 'clientdemo' })).find((r) => r.workflowId === runId)).toMatchObject({
      status: 'Terminated',
      pendingCount: 0,
    });

    // Watchers: the run never ran again to tell its stream, so the client tells them last, after the stream's end.
    const items: RunStreamItem[] = [];
    for await (const item of hitl.subscribe(runId)) items.push(item);
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i));
    expect(items.at(-2)).toMatchObject({ topic: 'events', event: { type: 'status_changed', status: 'AwaitingApproval' } });
    const told = { type: 'run_failed', status: 'Terminated', error: 'terminated by the test' };
    expect(items.at(-1)).toEqual({ offset: items.length - 1, topic: 'events', event: told });
    const sse = await readSse(`${api.url}/api/runs/${runId}/events`, { token: TOKEN });
    expect(sse.events.slice(-2)).toEqual([
      { id: String(items.length - 1), event: 'events', data: JSON.stringify(told) },
      expect.objectContaining({ event: 'end' }),
    ]);

    // The CLI speaks through the client: show, pending --wait and watch all say how it ended.
    const show = await runHitl(h, ['show', runId]);
    expect(show.stdout.split('\n')[0]).toContain('Terminated');
    expect(show.stdout).not.toContain('Waiting for approval');
    expect(await runHitl(h, ['pending', runId, '--wait', '5'])).toMatchObject({ code: 0, stdout: 'Nothing is waiting.\n' });
    const watched = await runHitl(h, ['watch', runId]);
    expect(watched.code).toBe(0);
    expect(watched.stdout.trim().split('\n').at(-1)).toBe('Terminated: terminated by the test');
  });

  it('names a waiting run whose memo holds no list and that does not answer, rather than leave it out unsaid', async () => {
    const { workflowId, end } = await startUnansweringRun(h, 'clientdemo');
    try {
      let reason: string | undefined;
      await waitFor(async () => {
        const { unreadable } = await hitl.waitingAcrossRuns({ agent: 'clientdemo' });
        reason = unreadable.find((r) => r.workflowId === workflowId)?.reason;
        return reason !== undefined;
      });
      expect(reason).toBe(
        'Its memo does not list its calls (too many for it), and it did not answer a query for them: Failed to query Workflow: no answer within 5 s',
      );
      // Another agent's list does not name it.
      expect((await hitl.waitingAcrossRuns({ agent: 'someone-else' })).unreadable.some((r) => r.workflowId === workflowId)).toBe(false);
      // Over HTTP, the list counts it in its header.
      const listed = await fetch(`${api.url}/api/approvals?agent=clientdemo`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(listed.status).toBe(200);
      expect(Number(listed.headers.get('hitl-unreadable-runs'))).toBeGreaterThanOrEqual(1);
    } finally {
      await end();
    }
  });

  it('says clearly when a run or an approval does not exist', async () => {
    await expect(hitl.getRun('no-such-run')).rejects.toBeInstanceOf(RunNotFoundError);
    await expect(hitl.decide('no-such-run', { decisions: [{ type: 'approve' }] })).rejects.toBeInstanceOf(RunNotFoundError);
    await expect(hitl.findApproval('not-an-id')).rejects.toThrow('Approval not-an-id not found: it is not a valid approval id.');
    await expect(hitl.findApproval(encodeApprovalId({ workflowId: 'no-such-run', callId: 'x' }))).rejects.toThrow(
      'run no-such-run does not exist',
    );
  });
});
