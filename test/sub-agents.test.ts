/** An agent calling another agent as a tool: a child workflow under its own policy, decided through the parent. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeApprovalId } from '../src/client/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { subAgentWorkflowId } from '../src/workflows/sub-agents.js';
import { decide, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let h: Harness;
let hitl: HitlClient;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'sub-agents',
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
    const childId = subAgentWorkflowId(parent.workflowId, 'ask1');
    const [pending] = await waitForPending(parent, 1);
    expect(pending).toMatchObject({ id: 'note', toolName: 'write_file', workflowId: childId, args: { path: 'shipped.md' } });
    const child = h.temporal.client.workflow.getHandle(childId);
    const { workflowId: _owner, ...asTheChildSeesIt } = pending!;
    expect(await child.query(pendingApprovalsQuery)).toEqual([asTheChildSeesIt]);

    // Listed once, through the parent, with an id that resolves to the child that owns the call.
    await waitFor(async () => (await hitl.listWaiting({ agent: 'coordinator' })).some((w) => w.runId === parent.workflowId));
    const listed = (await hitl.listWaiting()).filter((w) => w.id === 'note' && (w.runId === parent.workflowId || w.runId === childId));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ runId: parent.workflowId, workflowId: childId, agent: 'coordinator' });
    expect(decodeApprovalId(listed[0]!.approvalId)).toEqual({ workflowId: childId, callId: 'note' });

    const applied = await decide(parent, { decisions: [{ id: 'note', type: 'approve' }], approver: 'pat' });
    expect(applied).toEqual({
      applied: [
        { id: 'note', type: 'approve', toolName: 'write_file', argsHash: pending!.argsHash, approver: 'pat', forwardedTo: childId },
      ],
    });
    expect(await parent.result()).toMatchObject({ status: 'completed', output: 'The researcher wrote the note.' });

    expect(readFileSync(path.join(h.dataDir, 'workspace', 'shipped.md'), 'utf8')).toBe('one shipped order');
    expect(await toolMessages(parent)).toEqual([['ask1', 'Note written to shipped.md.']]);
    expect((await child.query(runStateQuery)).decisions).toEqual([
      expect.objectContaining({ id: 'note', type: 'approve', approver: 'pat', via: 'signal', outcome: 'applied' }),
    ]);
    expect((await parent.query(runStateQuery)).decisions).toEqual([
      expect.objectContaining({ id: 'note', forwardedTo: childId, approver: 'pat' }),
    ]);
  });

  it("edits a sub-agent's call through the parent against the sub-agent's own tools; a second decision is refused", async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate an edited note' });
    await waitForPending(parent, 1);
    // write_file is the researcher's tool, not the coordinator's: the edit is checked against the researcher's.
    await decide(parent, {
      decisions: [{ id: 'draft', type: 'edit', args: { path: 'draft.md', content: 'edited draft' } }],
      approver: 'pat',
    });
    await expect(decide(parent, { decisions: [{ id: 'draft', type: 'approve' }], approver: 'pat' })).rejects.toMatchObject({
      cause: { message: 'Call draft was already decided (edit by pat).' },
    });
    expect(await parent.result()).toMatchObject({ status: 'completed', output: 'The edited note is written.' });
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'draft.md'), 'utf8')).toBe('edited draft');
    const child = h.temporal.client.workflow.getHandle(subAgentWorkflowId(parent.workflowId, 'ask3'));
    expect((await child.query(runStateQuery)).decisions.filter((d) => d.outcome === 'applied')).toEqual([
      expect.objectContaining({ id: 'draft', type: 'edit', approver: 'pat', argsAfter: { path: 'draft.md', content: 'edited draft' } }),
    ]);
  });

  it('cancelling the parent cancels the child', async () => {
    const parent = await h.start({ agent: 'coordinator', prompt: 'coordinate and cancel' });
    await waitForPending(parent, 1);
    const child = h.temporal.client.workflow.getHandle(subAgentWorkflowId(parent.workflowId, 'ask2'));
    await parent.cancel();
    await expect(parent.result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
    expect((await parent.query(runStateQuery)).status).toBe('canceled');
    expect((await parent.describe()).status.name).toBe('CANCELLED');
    await expect(child.result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
    expect((await child.describe()).status.name).toBe('CANCELLED');
    expect((await child.query(runStateQuery)).status).toBe('canceled');
  });
});
