/**
 * Durations far past any calendar: a duration is checked as positive and finite, so '99999999d' is taken, and its
 * deadline, as a Date, once threw in the workflow (and past year 9999 its search attribute was refused): the run's
 * workflow task failed for good. It now means never
 * (src/workflows/workflow-clock.ts, isoAt): the run waits, and takes messages and decisions as any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { runStateQuery } from '../src/contract/messages.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const FAR = '99999999d';
/** The latest time Temporal takes. */
const LATEST = '9999-12-31T23:59:59.999Z';

let h: Harness;
let hitl: HitlClient;
beforeAll(async () => {
  h = await startHarness({
    agents: { lenient: defineAgent({ ...demoAgent, name: 'lenient', approval: { ...demoAgent.approval, runOverrides: 'any' } }) },
    script: {
      conversations: [
        { match: 'idle for ever', replies: [{ content: 'first answer' }, { content: 'second answer' }] },
        {
          match: 'wait for ever',
          replies: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'far.txt', content: 'far' } }] }, { content: 'written' }],
        },
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
});
afterAll(() => h?.close());

describe('a deadline past any calendar', () => {
  it('is a session that waits for its next message, and takes it', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'idle for ever', session: { idleTimeout: FAR } });
    await waitFor(async () => (await handle.query(runStateQuery)).status === 'AwaitingMessage', 30_000, 'the first answer');
    expect((await hitl.getRun(handle.workflowId)).problem).toBeUndefined();
    await hitl.say(handle.workflowId, 'and again');
    await waitFor(async () => (await handle.query(runStateQuery)).messages.some((m) => m.content === 'second answer'), 30_000, 'the turn');
    await hitl.endSession(handle.workflowId);
    expect(await handle.result()).toMatchObject({ status: 'Ended', output: 'second answer' });
  });

  it('is a call that waits for a decision, with its deadline at the latest time Temporal takes, escalations too', async () => {
    const handle = await h.start({
      agent: 'lenient',
      prompt: 'wait for ever',
      approval: { tools: { write_file: { timeout: FAR, escalate: [{ after: '99999998d', approvers: ['group:finance'] }] } } },
    });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ deadline: LATEST, escalations: [{ at: LATEST }] });
    expect((await hitl.getRun(handle.workflowId)).problem).toBeUndefined();
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }] });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'written' });
  });
});
