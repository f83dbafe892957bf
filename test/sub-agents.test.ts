/** An agent calling another agent as a tool: a child workflow under its own policy, decided through the parent. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { decodeApprovalId, encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { DecisionRefusedError } from '../src/errors.js';
import type { RunStreamItem } from '../src/schemas/run-event.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { childApprovalsSignal } from '../src/workflows/sub-agent-report.js';
import { subAgentWorkflowId } from '../src/workflows/sub-agents.js';
import { decide, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

/** A coordinator whose cancel_order fails the run (onError: fail). */
const strictCoordinator = defineAgent({
  name: 'strict-coordinator',
  instructions: 'You coordinate researchers and cancel orders.',
  tools: ['ask_researcher', 'cancel_order'],
  toolErrors: { cancel_order: 'fail' },
});

let h: Harness;
let hitl: HitlClient;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'sub-agents',
    agents: { 'strict-coordinator': strictCoordinator },
    wrapTools: (tools) => ({
      ...tools,
      cancel_order: {
        ...tools.cancel_order!,
        // Fails once the researcher beside it has started and waits for its approval.
        run: async () => {
          await sleep(1500);
          throw ApplicationFailure.nonRetryable('the order service refused', 'OrderServiceDown');
        },
      },
    }),
    script: {
      conversations: [
        {
          match: 'coordinate a report',
          replies: [
            { toolCalls: [call('ask1', 'ask_researcher', { prompt: 'research: write the shipped-orders note' })] },
            { content: 'The researcher wrote the note.' },
          ],
        },
        {
          match: 'research: write the shipped-orders note',
          replies: [
            { toolCalls: [call('note', 'write_file', { path: 'shipped.md', content: 'one shipped order' })] },
            { content: 'Note written to shipped.md.' },
          ],
        },
        {
          match: 'coordinate an edited note',
          replies: [
            { toolCalls: [call('ask3', 'ask_researcher', { prompt: 'research: a note to edit' })] },
            { content: 'The edited note is written.' },
          ],
        },
        {
          match: 'research: a note to edit',
          replies: [
            { toolCalls: [call('draft', 'write_file', { path: 'draft.md', content: 'first draft' })] },
            { content: 'Note written.' },
          ],
        },
        {
          match: 'coordinate a raced note',
          replies: [{ toolCalls: [call('ask5', 'ask_researcher', { prompt: 'research: a raced note' })] }, { content: 'Done.' }],
        },
        {
          match: 'research: a raced note',
          replies: [{ toolCalls: [call('race', 'write_file', { path: 'raced.md', content: 'who won' })] }, { content: 'Written.' }],
        },
        {
          match: 'coordinate under attack',
          replies: [{ toolCalls: [call('ask4', 'ask_researcher', { prompt: 'research: a note under attack' })] }, { content: 'never' }],
        },
        {
          match: 'research: a note under attack',
          replies: [{ toolCalls: [call('real', 'write_file', { path: 'attacked.md', content: 'the real note' })] }, { content: 'never' }],
        },
        {
          match: 'a refund someone else wants',
          replies: [{ toolCalls: [call('victim', 'process_refund', { orderId: '1234', amount: 75000 })] }, { content: 'never' }],
        },
        {
          match: 'coordinate past a cancelled researcher',
          replies: [
            { toolCalls: [call('ask5', 'ask_researcher', { prompt: 'research: a note cancelled alone' })] },
            { content: 'The researcher was stopped; nothing was written.' },
          ],
        },
        {
          match: 'research: a note cancelled alone',
          replies: [{ toolCalls: [call('alone', 'write_file', { path: 'alone.md', content: 'x' })] }, { content: 'never' }],
        },
        {
          match: 'coordinate two researchers and cancel',
          replies: [
            {
              toolCalls: [
                call('twoA', 'ask_researcher', { prompt: 'research: a first note nobody approves' }),
                call('twoB', 'ask_researcher', { prompt: 'research: a second note nobody approves' }),
                call('twoR', 'process_refund', { orderId: '1234', amount: 75000 }),
              ],
            },
            { content: 'never' },
          ],
        },
        {
          match: 'research: a first note nobody approves',
          replies: [{ toolCalls: [call('first', 'write_file', { path: 'first.md', content: 'x' })] }, { content: 'never' }],
        },
        {
          match: 'research: a second note nobody approves',
          replies: [{ toolCalls: [call('second', 'write_file', { path: 'second.md', content: 'x' })] }, { content: 'never' }],
        },
        {
          match: 'coordinate while an order fails',
          replies: [
            {
              toolCalls: [
                call('failA', 'ask_researcher', { prompt: 'research: a note beside a failing order' }),
                call('failB', 'cancel_order', { orderId: '1234' }),
              ],
            },
            { content: 'never' },
          ],
        },
        {
          match: 'research: a note beside a failing order',
          replies: [{ toolCalls: [call('beside', 'write_file', { path: 'beside.md', content: 'x' })] }, { content: 'never' }],
        },
        {
          match: 'coordinate where the id is taken',
          replies: [
            { toolCalls: [call('taken', 'ask_researcher', { prompt: 'research: a note whose id is taken' })] },
            { content: 'The researcher could not start.' },
          ],
        },
        {
          match: 'coordinate under a flood',
          replies: [
            { toolCalls: [call('flood', 'ask_researcher', { prompt: 'research: a note under a flood' })] },
            { content: 'The researcher wrote the note despite the flood.' },
          ],
        },
        {
          match: 'research: a note under a flood',
          replies: [{ toolCalls: [call('calm', 'write_file', { path: 'calm.md', content: 'x' })] }, { content: 'Note written.' }],
        },
        {
          match: 'coordinate a blank task',
          replies: [
            { toolCalls: [call('blank', 'ask_researcher', { prompt: ' \u3164\n' })] },
            { content: 'The researcher was not asked: the task said nothing.' },
          ],
        },
        {
          match: 'coordinate from a long id',
          replies: [
            { toolCalls: [call('long', 'ask_researcher', { prompt: 'research: a note from a long id' })] },
            { content: 'The researcher could not start: the id was too long.' },
          ],
        },
        {
          match: 'coordinate and cancel',
          replies: [{ toolCalls: [call('ask2', 'ask_researcher', { prompt: 'research: a note nobody approves' })] }, { content: 'never' }],
        },
        {
          match: 'research: a note nobody approves',
          replies: [{ toolCalls: [call('orphan', 'write_file', { path: 'orphan.md', content: 'x' })] }, { content: 'never' }],
        },
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
});
afterAll(() => h?.close());

describe('sub-agents', () => {
  it("shows the child's pending call in the parent, routes the parent's decision to it, and returns its answer", async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate a report' });
    const childId = subAgentWorkflowId(parent.workflowId, 'call-1');
    const [pending] = await waitForPending(parent, 1);
    // Shown in the parent under the parent's call that started the sub-agent: unique here, whatever ids the child uses.
    expect(pending).toMatchObject({
      id: 'call-1/call-1',
      toolName: 'write_file',
      subAgentWorkflowId: childId,
      agent: 'researcher',
      args: { path: 'shipped.md' },
    });
    const child = h.temporal.client.workflow.getHandle(childId);
    const { subAgentWorkflowId: _owner, ...asTheChildSeesIt } = pending!;
    expect(await child.query(pendingApprovalsQuery)).toEqual([{ ...asTheChildSeesIt, id: 'call-1' }]);

    // Listed once, through the parent, with an id that resolves to the child that owns the call.
    // The agent filter finds it by the agent whose call it is (the sub-agent) and by the run's it is listed under;
    // not by another agent's.
    await waitFor(async () => (await hitl.listWaiting({ agent: 'researcher' })).some((w) => w.workflowId === parent.workflowId));
    expect((await hitl.listWaiting({ agent: 'coordinator' })).map((w) => w.workflowId)).toContain(parent.workflowId);
    expect((await hitl.listWaiting({ agent: 'demo' })).map((w) => w.workflowId)).not.toContain(parent.workflowId);
    const listed = (await hitl.listWaiting()).filter((w) => w.workflowId === parent.workflowId || w.workflowId === childId);
    expect(listed).toHaveLength(1);
    // Listed under the top-level run, named for the sub-agent that asks; decided through the parent.
    expect(listed[0]).toMatchObject({
      id: 'call-1/call-1',
      workflowId: parent.workflowId,
      subAgentWorkflowId: childId,
      agent: 'researcher',
    });
    expect(decodeApprovalId(listed[0]!.approvalId)).toEqual({ workflowId: parent.workflowId, callId: 'call-1/call-1' });
    // The child's own id for it is not offered for deciding: it points to the top-level run's.
    const direct = encodeApprovalId({ workflowId: childId, callId: 'call-1' });
    await expect(hitl.findApproval(direct)).rejects.toThrow(`decide it through its top-level run, as approval ${listed[0]!.approvalId}`);

    const applied = await decide(parent, { decisions: [{ id: 'call-1/call-1', type: 'approve' }], approver: 'pat' });
    expect(applied).toEqual({
      applied: [
        {
          id: 'call-1/call-1',
          type: 'approve',
          toolName: 'write_file',
          argsHash: pending!.argsHash,
          approver: 'pat',
          forwardedTo: childId,
        },
      ],
    });
    expect(await parent.result()).toMatchObject({ status: 'Completed', output: 'The researcher wrote the note.' });

    expect(readFileSync(path.join(h.dataDir, 'workspace', 'shipped.md'), 'utf8')).toBe('one shipped order');
    expect(await toolMessages(parent)).toEqual([['ask1', 'Note written to shipped.md.']]);
    expect((await child.query(runStateQuery)).decisions).toEqual([
      expect.objectContaining({ id: 'call-1', type: 'approve', approver: 'pat', via: 'signal', outcome: 'applied' }),
    ]);
    // The parent's stream says the call waited, that the decision was passed on, and that the sub-agent took it.
    const streamed: RunStreamItem[] = [];
    for await (const item of hitl.subscribe(parent.workflowId)) streamed.push(item);
    const told = streamed.flatMap((i) => {
      if (i.topic !== 'events') return [];
      const { event } = i;
      if (event.type === 'approval_requested') return [[event.type, event.approval.id]];
      return event.type === 'approval_decided' || event.type === 'approval_noted' ? [[event.type, event.entry.id]] : [];
    });
    expect(told).toEqual([
      ['approval_requested', 'call-1/call-1'],
      ['approval_decided', 'call-1/call-1'],
      ['approval_noted', 'call-1/call-1'],
    ]);
    // Passed on, then taken there: the parent's log says both, and never that it applied the decision itself.
    expect((await parent.query(runStateQuery)).decisions).toEqual([
      expect.objectContaining({ id: 'call-1/call-1', outcome: 'forwarded', forwardedTo: childId, approver: 'pat' }),
      expect.objectContaining({ id: 'call-1/call-1', outcome: 'noted', event: 'forward_taken', forwardedTo: childId }),
    ]);
  });

  it("edits a sub-agent's call through the parent against the sub-agent's own tools; a second decision is refused", async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate an edited note' });
    await waitForPending(parent, 1);
    // write_file is the researcher's tool, not the coordinator's: the edit is checked against the researcher's.
    await decide(parent, {
      decisions: [{ id: 'call-1/call-1', type: 'edit', args: { path: 'draft.md', content: 'edited draft' } }],
      approver: 'pat',
    });
    // Refused the same way however soon it comes: the parent remembers what it passed on, for the life of the run.
    await expect(decide(parent, { decisions: [{ id: 'call-1/call-1', type: 'approve' }], approver: 'pat' })).rejects.toMatchObject({
      cause: { message: 'call-1/call-1 was already decided (edit by pat).' },
    });
    expect(await parent.result()).toMatchObject({ status: 'Completed', output: 'The edited note is written.' });
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'draft.md'), 'utf8')).toBe('edited draft');
    const child = h.temporal.client.workflow.getHandle(subAgentWorkflowId(parent.workflowId, 'call-1'));
    expect((await child.query(runStateQuery)).decisions.filter((d) => d.outcome === 'applied')).toEqual([
      expect.objectContaining({ id: 'call-1', type: 'edit', approver: 'pat', argsAfter: { path: 'draft.md', content: 'edited draft' } }),
    ]);
  });

  it("says what the sub-agent did with its call, when a decision sent to the sub-agent itself beat the parent's", async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate a raced note' });
    const childId = subAgentWorkflowId(parent.workflowId, 'call-1');
    await waitForPending(parent, 1);
    // Straight to the sub-agent, around the API (which refuses the child's own id): a Temporal client may.
    await decide(h.temporal.client.workflow.getHandle(childId), { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'mallory' });
    // Refused whichever way the race goes: by the parent if mallory's decision was reported first, else by the
    // sub-agent the parent passed it on to. It is never answered as applied.
    const late = await hitl
      .decide(parent.workflowId, { decisions: [{ id: 'call-1/call-1', type: 'reject', message: 'no' }], approver: 'boss' })
      .catch((err: unknown) => err);
    expect(late).toBeInstanceOf(DecisionRefusedError);
    expect(['already_decided', 'unknown_call']).toContain((late as DecisionRefusedError).code);
    expect(await parent.result()).toMatchObject({ status: 'Completed' });
    const status = await hitl.approvalStatus(encodeApprovalId({ workflowId: parent.workflowId, callId: 'call-1/call-1' }));
    expect(status).toMatchObject({
      workflowId: parent.workflowId,
      callId: 'call-1/call-1',
      status: 'decided',
      decision: { type: 'approve', approver: 'mallory' },
    });
  });

  it('cancelling the parent cancels the child', async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate and cancel' });
    await waitForPending(parent, 1);
    const child = h.temporal.client.workflow.getHandle(subAgentWorkflowId(parent.workflowId, 'call-1'));
    await parent.cancel();
    await expect(parent.result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
    expect((await parent.query(runStateQuery)).status).toBe('Canceled');
    expect((await parent.describe()).status.name).toBe('CANCELLED');
    await expect(child.result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
    expect((await child.describe()).status.name).toBe('CANCELLED');
    expect((await child.query(runStateQuery)).status).toBe('Canceled');
  });

  it('cancelling the parent cancels every waiting child, none terminated', async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate two researchers and cancel' });
    await waitForPending(parent, 3);
    const children = ['call-1', 'call-2'].map((id) => h.temporal.client.workflow.getHandle(subAgentWorkflowId(parent.workflowId, id)));
    await parent.cancel();
    await expect(parent.result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
    for (const child of children) {
      await expect(child.result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
      expect((await child.describe()).status.name).toBe('CANCELLED');
      expect((await child.query(runStateQuery)).status).toBe('Canceled');
    }
  });

  it('a call that fails the run cancels the sub-agent beside it first, none terminated', async () => {
    const parent = await h.start({ agent: 'strict-coordinator', prompt: 'coordinate while an order fails' });
    const child = h.temporal.client.workflow.getHandle(subAgentWorkflowId(parent.workflowId, 'call-1'));
    const failure = await parent.result().then(
      () => undefined,
      (err) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(failure.cause).toMatchObject({ type: 'ToolFailedError' });
    await expect(child.result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
    expect((await child.describe()).status.name).toBe('CANCELLED');
  });

  it("a workflow already holding a sub-agent's id: the call fails, the model is told, and the parent goes on", async () => {
    const parentId = `coordinator-${Date.now()}`;
    const squatter = await h.temporal.client.workflow.start('agentWorkflow', {
      args: [{ agent: 'researcher', prompt: 'research: a note nobody approves' }],
      taskQueue: h.taskQueue,
      workflowId: subAgentWorkflowId(parentId, 'call-1'),
    });
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate where the id is taken' }, parentId);
    expect(await parent.result()).toMatchObject({ status: 'Completed', output: 'The researcher could not start.' });
    const answers = await toolMessages(parent);
    expect(answers).toHaveLength(1);
    expect(answers[0]![1]).toMatch(/already/i);
    expect(answers[0]![1]).toContain(squatter.workflowId);
    expect((await squatter.describe()).status.name).toBe('RUNNING');
    await squatter.terminate();
  });

  it('a flood of junk decisions sent to a sub-agent: it reports to its parent once a workflow task, not once each', async () => {
    // Each refusal is a change a parent may be waiting to hear of (a forwarded decision's answer), and each change sent
    // its own report: hundreds taken in one task made as many signals in it, past the server's limits, for good.
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate under a flood' });
    const [pending] = await waitForPending(parent, 1);
    const child = h.temporal.client.workflow.getHandle(subAgentWorkflowId(parent.workflowId, 'call-1'));
    await Promise.all(Array.from({ length: 400 }, () => child.signal('decision', {})));
    const refused = async () => (await child.query(runStateQuery, { decisionsFrom: 399 })).decisions.some((d) => d.seq >= 400);
    await waitFor(refused, 60_000, 'every junk signal refused');
    const events = (await child.fetchHistory()).events ?? [];
    const tasks = events.filter((e) => e.workflowTaskCompletedEventAttributes).length;
    const reports = events.filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes).length;
    expect(reports).toBeLessThanOrEqual(tasks);
    expect(reports).toBeLessThan(400);
    await decide(parent, { decisions: [{ id: pending!.id, type: 'approve' }], approver: 'pat' });
    expect(await parent.result()).toMatchObject({ status: 'Completed', output: 'The researcher wrote the note despite the flood.' });
  });

  it('a sub-agent whose id would pass Temporal’s 1,000 bytes: the call fails, the model is told, and the parent goes on', async () => {
    // A run started straight through Temporal may take an id of up to 1,000 bytes; `<run>/<call>` passes it. Asked
    // for, the child failed the parent's workflow task on every retry, and the run was stuck.
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate from a long id' }, `coordinator-${'x'.repeat(985)}`);
    expect(await parent.result()).toMatchObject({ status: 'Completed', output: 'The researcher could not start: the id was too long.' });
    const answers = await toolMessages(parent);
    expect(answers).toHaveLength(1);
    expect(answers[0]![1]).toMatch(/workflow id would be 1\d{3} bytes .* over Temporal's 1000/);
  });

  it('a sub-agent asked with a prompt that says nothing is not started: the model is told why (patch set 32)', async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate a blank task' });
    expect(await parent.result()).toMatchObject({ status: 'Completed', output: 'The researcher was not asked: the task said nothing.' });
    const answers = await toolMessages(parent);
    expect(answers).toHaveLength(1);
    expect(answers[0]![1]).toContain('the sub-agent was not started: the prompt for it says nothing');
    // No child was started for it (the call's own id names the child it would have been).
    const children = ((await parent.fetchHistory()).events ?? []).filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    expect(children).toEqual([]);
  });

  it("a sub-agent cancelled on its own is its call's failure: the model is told, and the parent goes on", async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate past a cancelled researcher' });
    await waitForPending(parent, 1);
    const child = h.temporal.client.workflow.getHandle(subAgentWorkflowId(parent.workflowId, 'call-1'));
    await child.cancel();
    expect(await parent.result()).toMatchObject({ status: 'Completed', output: 'The researcher was stopped; nothing was written.' });
    const answers = await toolMessages(parent);
    expect(answers).toHaveLength(1);
    expect(answers[0]![1]).toMatch(/cancel/i);
    expect((await child.describe()).status.name).toBe('CANCELLED');
  });

  it('a forged report cannot pass a decision to another run, nor show what the sub-agent does not wait for', async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate under attack' });
    const childId = subAgentWorkflowId(parent.workflowId, 'call-1');
    const child = h.temporal.client.workflow.getHandle(childId);
    const [real] = await waitForPending(parent, 1);
    const victim = await h.start({ agent: 'demo', prompt: 'a refund someone else wants' });
    const [refund] = await waitForPending(victim, 1);
    // What the approver would see: a harmless read, carrying the victim's call id and arguments' hash.
    const harmless = { ...refund!, toolName: 'read_data', args: { table: 'orders' }, description: 'Read the orders table' };
    const report = (workflowId: string, pending: unknown[]) => ({ workflowId, seq: 99, pending, tools: ['read_data', 'write_file'] });
    for (const forged of [
      // From a sub-agent this run never started, for a call of another run.
      report(subAgentWorkflowId(parent.workflowId, 'call-9'), [{ ...harmless, subAgentWorkflowId: victim.workflowId }]),
      // In the name of the real sub-agent, for a call of another run.
      report(childId, [{ ...harmless, subAgentWorkflowId: victim.workflowId }]),
    ]) {
      await parent.signal(childApprovalsSignal, forged as never);
    }
    // A refused update is a barrier: the signals before it have been handled.
    await decide(parent, { decisions: [] }).catch(() => undefined);
    expect(await parent.query(pendingApprovalsQuery)).toEqual([real]);

    // In the name of the real sub-agent, for its own call, showing other arguments, numbered far past the sub-agent's
    // own reports, and answering the decision to come: the parent asks the sub-agent, which never sent it (patch
    // reportsConfirmed), so it is ignored. It froze the parent's view before: the sub-agent's own reports were older.
    const { subAgentWorkflowId: _owner, ...realAsReported } = real!;
    const disguised = { ...realAsReported, id: 'call-1', args: { path: 'harmless.md', content: 'nothing' } };
    const checksAsked = async () =>
      (await parent.fetchHistory()).events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
    const askedBefore = await checksAsked();
    const answered = { answered: ['call-1'], answers: [{ id: 'call-1', approver: 'pat' }] };
    await parent.signal(childApprovalsSignal, { ...report(childId, [disguised]), seq: 1_000_000, ...answered } as never);
    await waitFor(async () => (await checksAsked()) > askedBefore);
    expect(await parent.query(pendingApprovalsQuery)).toEqual([real]);
    // What the approver sees is what the sub-agent waits for: the decision is passed on, taken there, and the parent
    // hears so from the sub-agent's own report.
    await decide(parent, { decisions: [{ id: 'call-1/call-1', type: 'approve' }], approver: 'pat' });
    await waitFor(async () => (await parent.query(runStateQuery)).decisions.some((d) => d.event === 'forward_taken'));
    expect((await child.query(runStateQuery)).decisions).toEqual([expect.objectContaining({ id: 'call-1', outcome: 'applied' })]);
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'attacked.md'), 'utf8')).toBe('the real note');
    // The victim's refund is untouched.
    expect((await victim.query(runStateQuery)).decisions).toEqual([]);
    expect(await victim.query(pendingApprovalsQuery)).toEqual([refund]);
    expect(await parent.result()).toMatchObject({ status: 'Completed' });
    await victim.terminate('test over');
  });
});
