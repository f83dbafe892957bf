/**
 * Signing switched on while a run waits, with a sub-agent started after: the run checks no tokens, its sub-agent
 * requires them. A decision for the sub-agent's call goes on through the run with its token, which the sub-agent
 * checks (patch tokensPassToOwners); before, the client sent it again unsigned and the sub-agent refused it for good.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import type { Listening } from '../src/api/listen.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { runStateQuery } from '../src/contract/messages.js';
import { DecisionRefusedError } from '../src/errors.js';
import { startTestApi } from './helpers/api.js';
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { newSigner, trustOf } from './helpers/signing.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const coordinator = defineAgent({
  name: 'late-coordinator',
  instructions: 'You cancel orders, then ask the researcher.',
  tools: ['cancel_order', 'ask_researcher'],
  approval: { tools: { cancel_order: true, ask_researcher: false } },
});
const TOKEN = 'alice-sub-agent-signing-0123';
const key = newSigner('EdDSA', 'switched-on-for-sub-agents');

let h: Harness;
let api: Listening;
let hitl: HitlClient;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'sub-agent-signing',
    agents: { 'late-coordinator': coordinator },
    script: {
      conversations: [
        {
          match: 'coordinate after signing',
          replies: [
            { toolCalls: [call('c1', 'cancel_order', { orderId: '1235' })] },
            { toolCalls: [call('a1', 'ask_researcher', { prompt: 'research: a note after signing' })] },
            { content: 'Cancelled, and the note is written.' },
          ],
        },
        {
          match: 'research: a note after signing',
          replies: [{ toolCalls: [call('w1', 'write_file', { path: 'after.md', content: 'signed' })] }, { content: 'Written.' }],
        },
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
  api = await startTestApi(h, { tokens: { [TOKEN]: { approver: 'alice', groups: ['finance'] } }, signer: key });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

async function approve(workflowId: string, callId: string) {
  const id = encodeApprovalId({ workflowId, callId });
  const response = await fetch(`${api.url}/api/approvals/${id}/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('signing switched on between a run and its sub-agent', () => {
  it("decides the sub-agent's call through the run, signed, as the sub-agent requires", async () => {
    // The run starts on a worker that trusts no signer: it checks no tokens.
    const parent = await h.start({ agent: 'late-coordinator', prompt: 'coordinate after signing' });
    await waitForPending(parent, 1);
    // Signing is switched on: a sub-agent started from here on requires a token for every decision.
    await h.restartWorker({ signedDecisions: { trust: trustOf([key.key.publicJwk]), requiredByDefault: true } });
    expect(await approve(parent.workflowId, 'call-1')).toMatchObject({ status: 200, body: { applied: [{ approver: 'alice' }] } });

    const [waiting] = await waitForPending(parent, 1);
    expect(waiting).toMatchObject({ id: 'call-2/call-1', toolName: 'write_file' });
    const childId = `${parent.workflowId}/call-2`;

    // A token the run passes on unchecked, and the sub-agent refuses: the sender hears the sub-agent's refusal, and
    // the run's log says the decision was passed on and refused there, never that it was applied.
    const forged = hitl.decide(parent.workflowId, {
      decisions: [{ id: 'call-2/call-1', type: 'approve', token: 'not.a.token' }],
      approver: 'mallory',
    });
    await expect(forged).rejects.toBeInstanceOf(DecisionRefusedError);
    await expect(forged).rejects.toMatchObject({
      code: 'token_refused',
      message: expect.stringContaining(`${childId} owns call-2/call-1`),
    });
    const afterForged = (await parent.query(runStateQuery)).decisions.filter((d) => d.id === 'call-2/call-1');
    expect(afterForged).toEqual([
      expect.objectContaining({ outcome: 'forwarded', type: 'approve', approver: 'mallory', forwardedTo: childId }),
      expect.objectContaining({
        outcome: 'noted',
        event: 'forward_refused',
        approver: 'mallory',
        forwardedTo: childId,
        refusal: expect.objectContaining({ code: 'token_refused' }),
      }),
    ]);
    // The call waits again, here and in the sub-agent, for a decision that holds.
    await waitForPending(parent, 1);

    expect(await approve(parent.workflowId, 'call-2/call-1')).toMatchObject({
      status: 200,
      body: { applied: [{ id: 'call-2/call-1', approver: 'alice', forwardedTo: `${parent.workflowId}/call-2` }] },
    });
    expect(await parent.result()).toMatchObject({ status: 'Completed' });
    expect(existsSync(path.join(h.dataDir, 'workspace', 'after.md'))).toBe(true);
    // The sub-agent checked the token: the decision is alice's by her signature, not by the run's word.
    const child = h.temporal.client.workflow.getHandle(childId);
    await waitFor(async () => (await child.query(runStateQuery)).decisions.some((d) => d.outcome === 'applied'));
    const applied = (await child.query(runStateQuery)).decisions.filter((d) => d.outcome === 'applied');
    expect(applied).toEqual([expect.objectContaining({ id: 'call-1', type: 'approve', approver: 'alice' })]);
    expect((await parent.query(runStateQuery)).decisions.filter((d) => d.id === 'call-2/call-1').slice(2)).toEqual([
      expect.objectContaining({ outcome: 'forwarded', approver: 'alice' }),
      expect.objectContaining({ outcome: 'noted', event: 'forward_taken', approver: 'alice', forwardedTo: childId }),
    ]);
  });
});
