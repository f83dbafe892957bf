/**
 * Who asked is proven where decisions must be signed: a run takes its `requestedBy` only from a request token signed
 * by a key it trusts, for its own workflow id, agent and prompt. Four eyes and `requestedBy` conditions read it, and
 * a start sent straight to Temporal could otherwise name anyone, as a test here did before the check. The API, `hitl
 * start` (through `HitlClient.startRun`) sign one with the signing key; `hitl sign-request` prints one for the `temporal`
 * CLI and other SDKs.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Listening } from '../src/api/listen.js';
import { runStateQuery } from '../src/contract/messages.js';
import { InvalidRunInputError } from '../src/errors.js';
import { signedDecision } from '../src/signing/sign-decision.js';
import { signRequestToken } from '../src/signing/sign-request.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { decide, refusalOf, signalDecision, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { startOf, waitFor } from './helpers/history.js';
import { uniqueName } from './helpers/temporal.js';
import { newSigner, trustOf } from './helpers/signing.js';

const CANCEL = { toolCalls: [{ id: 'c', name: 'cancel_order', arguments: { orderId: '1237' } }] };
const key = newSigner('EdDSA', 'k1');
const stranger = newSigner('EdDSA', 'k1');
const TOKENS = { 'bob-requester-token-0123456': { approver: 'bob', groups: ['support'] } };
const FOUR_EYES = { fourEyes: true };

let h: Harness;
let api: Listening;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'proven-requester',
    script: {
      conversations: [
        { match: 'cancel', replies: [CANCEL, { content: 'cancel handled' }] },
        {
          match: 'coordinate a signed note',
          replies: [
            { toolCalls: [{ id: 'ask', name: 'ask_researcher', arguments: { prompt: 'research: a signed note' } }] },
            { content: 'noted' },
          ],
        },
        {
          match: 'research: a signed note',
          replies: [
            { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'signed.md', content: 'x' } }] },
            { content: 'written' },
          ],
        },
      ],
    },
    signedDecisions: { trust: trustOf([key.key.publicJwk]), requiredByDefault: true },
  });
  api = await startTestApi(h, { tokens: TOKENS, signer: key });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const prompt = 'Please cancel order 1237';

/** The run's failure at start: an InvalidRunInputError, with its message. */
async function refusedStart(handle: WorkflowHandle): Promise<string> {
  const error = await handle.result().then(
    () => expect.fail('the run should have failed at start'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const cause = (error as WorkflowFailedError).cause as { type?: string; message: string };
  expect(cause.type).toBe(InvalidRunInputError.name);
  return cause.message;
}

describe('a run whose decisions must be signed proves who asked', () => {
  it('refuses a start that names a requester without a token, or with a token for another start', async () => {
    const unproven = await h.start({ agent: 'demo', prompt, requestedBy: 'mallory', approval: FOUR_EYES });
    expect(await refusedStart(unproven)).toContain('requestedBy "mallory" is not proven');
    // Views do not name who the refused start claimed to be.
    expect((await unproven.query(runStateQuery)).requestedBy).toBeUndefined();

    const elsewhere = signRequestToken(key, { workflowId: 'another-run', agent: 'demo', prompt, requestedBy: 'mallory', now: Date.now() });
    const copied = await h.start({ agent: 'demo', prompt, requestedBy: 'mallory', requestToken: elsewhere });
    expect(await refusedStart(copied)).toContain('requestToken refused (wrong_workflow)');

    const workflowId = uniqueName('forged');
    const forged = signRequestToken(stranger, { workflowId, agent: 'demo', prompt, requestedBy: 'mallory', now: Date.now() });
    expect(await refusedStart(await h.start({ agent: 'demo', prompt, requestToken: forged }, workflowId))).toContain('(bad_signature)');

    const id = uniqueName('swapped');
    const ann = signRequestToken(key, { workflowId: id, agent: 'demo', prompt, requestedBy: 'ann', now: Date.now() });
    expect(await refusedStart(await h.start({ agent: 'demo', prompt, requestedBy: 'mallory', requestToken: ann }, id))).toContain(
      'requestedBy "mallory" is not who the requestToken names ("ann")',
    );
  });

  it('refuses four eyes with no requester at all, and lets a run without four eyes have none', async () => {
    const anonymous = await h.start({ agent: 'demo', prompt, approval: FOUR_EYES });
    expect(await refusedStart(anonymous)).toContain('four eyes needs a proven requester');
    const open = await h.start({ agent: 'demo', prompt });
    await waitForPending(open, 1);
    expect((await open.query(runStateQuery)).requestedBy).toBeUndefined();
    await open.terminate();
  });

  it('takes the requester from a valid token, and four eyes keeps them from approving, across continue-as-new', async () => {
    // The token alone names who asked: the input claims no one.
    const workflowId = uniqueName('signed-start');
    const requestToken = signRequestToken(key, { workflowId, agent: 'demo', prompt, requestedBy: 'ann', now: Date.now() });
    const first = await h.start(
      { agent: 'demo', prompt, approval: FOUR_EYES, requestToken, continueAsNew: { beforeWaitEvents: 50 } },
      workflowId,
    );
    const latest = h.temporal.client.workflow.getHandle(workflowId);
    const [pending] = await waitForPending(latest, 1);
    expect((await latest.query(runStateQuery)).requestedBy).toBe('ann');
    const as = (approver: string) =>
      decide(latest, {
        decisions: [
          signedDecision(key, { id: pending!.id, type: 'approve' }, { workflowId, argsHash: pending!.argsHash, approver, now: Date.now() }),
        ],
      });
    expect(await refusalOf(as('ann'))).toMatchObject({ code: 'four_eyes', message: expect.stringContaining('ann requested this run') });

    // Refused signals fill the history until the waiting run continues as new, the call still pending.
    const firstRunId = (await latest.describe()).runId;
    await waitFor(
      async () => {
        await signalDecision(latest, { padding: true });
        return (await latest.describe()).runId !== firstRunId;
      },
      60_000,
      'the run to continue as new',
      0,
    );
    // The next run carries who asked, proven, and not the token (which would have expired by the time it ran).
    const { input } = await startOf<{ requestedBy?: string; requestToken?: string }>(latest);
    expect(input).toMatchObject({ requestedBy: 'ann' });
    expect(input.requestToken).toBeUndefined();
    expect(await refusalOf(as('ann'))).toMatchObject({ code: 'four_eyes' });
    await as('carol');
    expect(await latest.result()).toMatchObject({ status: 'Completed', output: 'cancel handled' });
    expect(first.firstExecutionRunId).toBe(firstRunId);
  });

  it('checks the token against the run’s first task: a reset to a later task passes once it has expired', async () => {
    const workflowId = uniqueName('reset');
    // Issued 110 s ago and expired 50 s ago: within the run's 60 s clock skew for about ten seconds more.
    const issued = Date.now() - 110_000;
    const requestToken = signRequestToken(key, { workflowId, agent: 'demo', prompt, requestedBy: 'fay', now: issued, ttlSeconds: 60 });
    const handle = await h.start({ agent: 'demo', prompt, approval: FOUR_EYES, requestToken }, workflowId);
    await waitForPending(handle, 1);
    await sleep(Math.max(0, issued + 60_000 + 60_000 + 1_000 - Date.now()));
    // A new run with a token that old is refused; the reset below replays the first task, and its clock.
    const late = uniqueName('late');
    const expired = signRequestToken(key, { workflowId: late, agent: 'demo', prompt, requestedBy: 'fay', now: issued, ttlSeconds: 60 });
    expect(await refusedStart(await h.start({ agent: 'demo', prompt, requestToken: expired }, late))).toContain('(expired)');

    const events = (await handle.fetchHistory()).events!;
    const lastTask = events.filter((e) => e.workflowTaskCompletedEventAttributes).at(-1)!;
    await h.temporal.client.workflowService.resetWorkflowExecution({
      namespace: h.temporal.namespace,
      workflowExecution: { workflowId, runId: handle.firstExecutionRunId },
      reason: 'test: a reset after the request token expired',
      workflowTaskFinishEventId: lastTask.eventId,
      requestId: randomUUID(),
    });
    const reset = h.temporal.client.workflow.getHandle(workflowId);
    expect((await reset.describe()).runId).not.toBe(handle.firstExecutionRunId);
    await waitForPending(reset, 1);
    expect((await reset.query(runStateQuery)).requestedBy).toBe('fay');
    await reset.terminate();
  });

  it('a sub-agent’s run takes its parent’s proven requester, and four eyes follows the work down', async () => {
    const workflowId = uniqueName('coordinator');
    const prompt = 'Please coordinate a signed note';
    const requestToken = signRequestToken(key, { workflowId, agent: 'coordinator', prompt, requestedBy: 'gus', now: Date.now() });
    const handle = await h.start({ agent: 'coordinator', prompt, approval: FOUR_EYES, requestToken }, workflowId);
    const [pending] = await waitForPending(handle, 1);
    expect(pending!.id).toContain('/');
    const child = h.temporal.client.workflow.getHandle(pending!.subAgentWorkflowId!);
    expect((await child.query(runStateQuery)).requestedBy).toBe('gus');
    const as = (approver: string) =>
      decide(handle, {
        decisions: [
          signedDecision(key, { id: pending!.id, type: 'approve' }, { workflowId, argsHash: pending!.argsHash, approver, now: Date.now() }),
        ],
      });
    expect(await refusalOf(as('gus'))).toMatchObject({ code: 'four_eyes' });
    await as('hana');
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'noted' });
  });

  it('over HTTP: the API signs for the caller it authenticated', async () => {
    const response = await fetch(`${api.url}/api/runs`, {
      method: 'POST',
      headers: { authorization: 'Bearer bob-requester-token-0123456', 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'demo', prompt, approval: FOUR_EYES }),
    });
    expect(response.status).toBe(201);
    const { workflowId } = (await response.json()) as { workflowId: string };
    const handle = h.temporal.client.workflow.getHandle(workflowId);
    await waitForPending(handle, 1);
    expect((await handle.query(runStateQuery)).requestedBy).toBe('bob');
    await handle.terminate();
  });

  it('from the CLI: hitl start signs with HITL_SIGNING_KEY, and hitl sign-request serves the temporal CLI', async () => {
    const env = { HITL_SIGNING_KEY: JSON.stringify(key.privateJwk) };
    const started = await runHitl(h, ['start', '-q', '--agent', 'demo', '--requested-by', 'dora', prompt], { env });
    expect(started.code, started.stderr).toBe(0);
    const viaHitl = h.temporal.client.workflow.getHandle(started.stdout.trim());
    await waitForPending(viaHitl, 1);
    expect((await viaHitl.query(runStateQuery)).requestedBy).toBe('dora');
    await viaHitl.terminate();

    const workflowId = uniqueName('temporal-cli');
    const minted = await runHitl(
      h,
      ['sign-request', '--json', '--workflow-id', workflowId, '--agent', 'demo', '--prompt', prompt, '--as', 'erin'],
      { env },
    );
    expect(minted.code, minted.stderr).toBe(0);
    await promisify(execFile)(inject('temporalCliPath'), [
      ...['workflow', 'start', '--address', h.temporal.address, '--namespace', h.temporal.namespace],
      ...['--task-queue', h.taskQueue, '--type', 'agentWorkflow', '--workflow-id', workflowId, '--input', minted.stdout.trim()],
    ]);
    const viaTemporal = h.temporal.client.workflow.getHandle(workflowId);
    await waitForPending(viaTemporal, 1);
    expect((await viaTemporal.query(runStateQuery)).requestedBy).toBe('erin');
    await viaTemporal.terminate();
  });
});
