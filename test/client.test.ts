/** The typed client against the real dev server and worker. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { decodeApprovalId, encodeApprovalId } from '../src/client/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { DecisionRefusedError, RunNotFoundError } from '../src/errors.js';
import type { RunEvent } from '../src/schemas/run-event.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const agent = defineAgent({ ...demoAgent, name: 'clientdemo' });
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let h: Harness;
let hitl: HitlClient;
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
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
});
afterAll(() => h?.close());

describe('HitlClient', () => {
  it('starts a run, finds it waiting across runs, decides idempotently, and watches it to the end', async () => {
    const { workflowId: runId } = await hitl.startRun({ agent: 'clientdemo', prompt: 'client two calls', requestedBy: 'carol' });
    await waitFor(async () => (await hitl.pending(runId)).length === 2);
    const events: RunEvent[] = [];
    const watching = (async () => {
      for await (const event of hitl.watch(runId, { intervalMs: 100 })) events.push(event);
    })();
    await waitFor(() => events.filter((e) => e.type === 'approval_requested').length === 2);

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

    // Status changes interleave with timing; everything else arrives in the order it happened.
    expect(events.filter((e) => e.type !== 'status').map((e) => e.type)).toEqual([
      'step',
      'model_reply',
      'approval_requested',
      'approval_requested',
      'decision',
      'decision',
      'tool_result',
      'tool_result',
      'step',
      'model_reply',
      'completed',
    ]);
    expect(events.filter((e) => e.type === 'status').map((e) => e.type === 'status' && e.status)).toContain('AwaitingApproval');
    expect(events.filter((e) => e.type === 'decision').map((e) => e.type === 'decision' && [e.entry.id, e.entry.type])).toEqual([
      ['call-1', 'approve'],
      ['call-2', 'reject'],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'completed', status: 'Completed', result: { output: 'finished' } });

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
    await expect(hitl.approve(runId, 'call-1')).rejects.toSatisfy((e) => e instanceof DecisionRefusedError && e.code === 'already_decided');
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
