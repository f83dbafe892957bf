/**
 * Stuck runs, induced for real, as the CLI, the HTTP API and the inbox report them. Two kinds:
 *   - a workflow task that keeps failing: a worker runs a bundle whose approval gate throws a plain Error once a
 *     call is decided (test/fixtures/stuck), and a decision signal arrives; every retry of the task fails again;
 *   - no worker: a run on a task queue nobody polls, and a run whose worker went away while it waited.
 * Each says that the run is stuck, since when, the failure and what to do; the commands it advises (Temporal's
 * reset) are run as written; decisions are refused with `run_stuck` (HTTP 409, CLI exit 5) and never hang; the
 * inbox shows the stuck notice instead of decision buttons (screenshots in test-results/).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import type { HealthOptions } from '../src/client/run-health.js';
import type { Listening } from '../src/api/listen.js';
import type { RunProblem } from '../src/schemas/run-problem.js';
import { startTestApi } from './helpers/api.js';
import { launchBrowser, screenshot, type Browser } from './helpers/browser.js';
import { bundleWithReplacement } from './helpers/bundle-variant.js';
import { runHitl } from './helpers/cli.js';
import { signalDecision, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { uniqueName } from './helpers/temporal.js';

const exec = promisify(execFile);
const agent = defineAgent({ ...demoAgent, name: 'stuckdemo' });
const TOKEN = 'alice-stuck-token-0123456789';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

let h: Harness;
/** Shared by the test's client and the API's: the last test shortens how long a silent worker counts as present. */
const health: HealthOptions = {};
let hitl: HitlClient;
let api: Listening;
let browser: Browser;
let page: Page;
const runs = { failing: '', noWorker: '', gone: '' };

async function request(method: string, urlPath: string, body?: unknown) {
  const response = await fetch(`${api.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function waitForProblem(workflowId: string, kind: RunProblem['kind'], check: () => Promise<boolean> = async () => true) {
  await waitFor(async () => (await hitl.diagnose(workflowId))?.kind === kind && (await check()), 90_000, `${workflowId}: ${kind}`);
  return (await hitl.diagnose(workflowId))!;
}

/** Runs a `temporal …` command taken from the advice, as written, against the suite's server. */
async function runAdvised(advice: string[], marker: string): Promise<string> {
  const line = advice.find((a) => a.includes(marker));
  expect(line, `advice with ${marker}`).toBeDefined();
  const command = line!.slice(line!.indexOf('temporal workflow'));
  const [, ...args] = (command.match(/"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^"|"$/g, ''));
  await exec(inject('temporalCliPath'), [...args, '--address', h.temporal.address]);
  return command;
}

const item = (workflowId: string) =>
  page.locator(`.approval-item[data-approval-id="${encodeApprovalId({ workflowId, callId: 'call-1' })}"]`);

beforeAll(async () => {
  // The deployed worker has a bug: its approval gate throws once a call is decided.
  const buggy = await bundleWithReplacement(/^\.\/approval-gate\.js$/, 'test/fixtures/stuck/approval-gate-that-throws.ts');
  h = await startHarness({
    bundlePath: buggy,
    agents: { stuckdemo: agent },
    script: {
      conversations: [
        {
          match: '/stuck: cancel (\\d+)/',
          replies: [
            { toolCalls: [{ id: 'c1', name: 'cancel_order', arguments: { orderId: '{{1}}' } }] },
            { content: 'order {{1}} handled' },
          ],
        },
      ],
    },
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue, health);
  api = await startTestApi(h, { hitl, tokens: { [TOKEN]: { approver: 'alice', groups: ['finance'] } } });
  browser = await launchBrowser();
  page = browser.page;
  await page.goto(`${api.url}/?agent=stuckdemo`);
  await page.getByLabel('API token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.identity').waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  if (runs.noWorker) await h.temporal.client.workflow.getHandle(runs.noWorker).terminate('test over');
  await h?.close();
});

describe('a run whose workflow task keeps failing', () => {
  let problem: RunProblem;

  it(
    'is reported stuck by the HTTP API, with since when, the failure and what to do; deciding it is refused',
    { timeout: 180_000 },
    async () => {
      const handle = await h.start({ agent: 'stuckdemo', prompt: 'stuck: cancel 1235' });
      runs.failing = handle.workflowId;
      await waitForPending(handle, 1);
      // An operator approves with the temporal CLI's signal: the buggy gate throws on every retry of the task.
      await signalDecision(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ops-bot' });
      problem = await waitForProblem(runs.failing, 'workflow_task_failing');
      expect(problem).toMatchObject({ since: expect.stringMatching(ISO), failure: expect.stringContaining('injected bug') });
      expect(problem.attempts).toBeGreaterThanOrEqual(2);
      expect(problem.advice.join('\n')).toContain(`temporal workflow reset --workflow-id ${runs.failing} --type LastWorkflowTask`);

      const run = await request('GET', `/api/runs/${runs.failing}`);
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({
        status: 'AwaitingApproval',
        prompt: 'stuck: cancel 1235',
        pending: [{ id: 'call-1', toolName: 'cancel_order' }],
        problem: { kind: 'workflow_task_failing', since: problem.since, failure: problem.failure },
      });
      const stuck = await request('GET', '/api/runs?stuck=true&agent=stuckdemo');
      expect(stuck.body).toEqual([
        expect.objectContaining({ workflowId: runs.failing, problem: expect.objectContaining({ kind: 'workflow_task_failing' }) }),
      ]);
      const all = await request('GET', '/api/runs?agent=stuckdemo');
      expect(all.body.find((r: any) => r.workflowId === runs.failing)?.problem?.kind).toBe('workflow_task_failing');

      // Still listed (from what the run last published), and its detail says why it cannot be decided.
      const approvalId = encodeApprovalId({ workflowId: runs.failing, callId: 'call-1' });
      expect((await request('GET', '/api/approvals?agent=stuckdemo')).body.map((a: any) => a.id)).toEqual([approvalId]);
      expect((await request('GET', `/api/approvals/${approvalId}`)).body).toMatchObject({
        callId: 'call-1',
        problem: { kind: 'workflow_task_failing' },
      });
      const refused = await request('POST', `/api/approvals/${approvalId}/approve`, {});
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('run_stuck');
      expect(refused.body.error.message).toContain('injected bug');
    },
  );

  it('is reported stuck by the CLI: runs --stuck, runs, show, pending; approving exits 5', { timeout: 180_000 }, async () => {
    const listed = await runHitl(h, ['runs', '--stuck', '--agent', 'stuckdemo']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(runs.failing);
    expect(listed.stdout).toMatch(/AwaitingApproval, STUCK since \S+ \(workflow task failing\)/);
    expect((await runHitl(h, ['runs', '--agent', 'stuckdemo'])).stdout).toContain('A stuck run cannot take decisions');

    const shown = await runHitl(h, ['show', runs.failing]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^STUCK: its workflow task keeps failing \(\d+ attempts\)$/m);
    expect(shown.stdout).toContain(`Since: ${problem.since}`);
    expect(shown.stdout).toContain(`Failure: ${problem.failure}`);
    expect(shown.stdout).toContain('temporal workflow reset');
    expect(shown.stdout).toContain('Decisions cannot be taken until the run is unstuck');
    const json = JSON.parse((await runHitl(h, ['--json', 'show', runs.failing])).stdout);
    expect(json.problem).toMatchObject({ kind: 'workflow_task_failing', since: problem.since });
    expect((await runHitl(h, ['pending', runs.failing])).stdout).toMatch(/^STUCK: [\s\S]*call-1 .*cancel_order/m);

    const approved = await runHitl(h, ['approve', runs.failing, 'call-1', '--as', 'alice']);
    expect(approved.code).toBe(5);
    expect(approved.stderr).toContain('Refused (run_stuck)');
    expect(approved.stderr).toContain('injected bug');
  });

  it('is shown stuck in the inbox: the notice instead of buttons, and keys decide nothing', async () => {
    const posted: string[] = [];
    const onRequest = (r: Request) => r.method() === 'POST' && posted.push(r.url());
    page.on('request', onRequest);
    await item(runs.failing).click();
    const notice = page.locator('.detail .stuck');
    await notice.waitFor();
    expect(await notice.locator('h3').textContent()).toMatch(/^This run is stuck: its workflow task keeps failing \(\d+ attempts\)$/);
    expect(await notice.locator('.failure').innerText()).toBe(problem.failure);
    expect(await notice.innerText()).toContain(
      `Since ${await page.evaluate(`new Date(${JSON.stringify(problem.since)}).toLocaleString()`)}`,
    );
    expect(await notice.locator('.advice li').allInnerTexts()).toEqual(problem.advice);
    expect(await notice.locator('.advice code').allInnerTexts()).toEqual(
      problem.advice.flatMap((a) => /temporal workflow.*/.exec(a) ?? []),
    );
    expect(await page.locator('.detail .decide').count()).toBe(0);
    // The deadline does not pass while the run is stuck, and the transcript is not there to show.
    expect(await page.locator('.detail .facts .then').innerText()).toBe(', then it is rejected automatically, once the run is unstuck');
    expect(await page.locator('.detail .context').innerText()).toContain('A stuck run cannot show its transcript');

    await page.keyboard.press('a');
    await page.keyboard.press('r');
    // A round of the list's polling later, still nothing was sent.
    await page.waitForResponse((r) => r.url().includes('/api/approvals'));
    expect(posted).toEqual([]);
    page.off('request', onRequest);
    expect(existsSync(await screenshot(page, 'inbox-stuck.png'))).toBe(true);
    expect(browser.pageErrors).toEqual([]);
  });

  it(
    'goes on as advised: a reset to the failure hits the bug again, a reset without the signal unsticks the run, the fix lets it finish',
    { timeout: 400_000 },
    async () => {
      const handle = h.temporal.client.workflow.getHandle(runs.failing);
      const firstRunId = (await handle.describe()).runId;
      // Reset to the failed task: every input stays in the order the run saw it, so the bug, still deployed, hits again.
      expect(await runAdvised(problem.advice, 'retry after the fix')).toMatch(/--event-id \d+ /);
      await waitForProblem(runs.failing, 'workflow_task_failing', async () => (await handle.describe()).runId !== firstRunId);

      // Reset to the last good task without the input that broke it: the call waits again, and the run is not stuck.
      const secondRunId = (await handle.describe()).runId;
      await runAdvised((await hitl.diagnose(runs.failing))!.advice, '--reapply-exclude All');
      await waitFor(
        async () => (await handle.describe()).runId !== secondRunId && (await hitl.diagnose(runs.failing)) === undefined,
        60_000,
        'the reset run to wait',
      );
      const waiting = await request('GET', `/api/runs/${runs.failing}`);
      expect(waiting.body).toMatchObject({ status: 'AwaitingApproval', pending: [{ id: 'call-1' }], decisions: [] });
      expect(waiting.body.problem).toBeUndefined();

      // Deciding it with the bug still deployed: the task fails while applying the decision; refused, not recorded.
      const approvalId = encodeApprovalId({ workflowId: runs.failing, callId: 'call-1' });
      const refused = await request('POST', `/api/approvals/${approvalId}/approve`, {});
      expect(refused).toMatchObject({
        status: 409,
        body: { error: { code: 'run_stuck', message: expect.stringContaining('injected bug') } },
      });
      await waitFor(async () => (await hitl.diagnose(runs.failing)) === undefined, 90_000, 'the run to wait again');
      expect((await request('GET', `/api/runs/${runs.failing}`)).body).toMatchObject({ pending: [{ id: 'call-1' }], decisions: [] });

      // The fix is deployed: the same decision goes through and the run finishes.
      await h.restartWorker({ bundlePath: inject('workflowBundlePath') });
      expect((await request('POST', `/api/approvals/${approvalId}/approve`, {})).status).toBe(200);
      expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'order 1235 handled' });
      expect(h.shop.prepare("SELECT status FROM orders WHERE id = '1235'").get()).toEqual({ status: 'canceled' });
      expect((await runHitl(h, ['runs', '--stuck', '--agent', 'stuckdemo'])).stdout).toContain('No stuck runs.');
    },
  );
});

describe('a run no worker polls for', () => {
  it('is reported stuck at once, and a decision is refused rather than left waiting', async () => {
    const queue = uniqueName('nobody');
    const started = await new HitlClient(h.temporal.client, queue).startRun({ agent: 'stuckdemo', prompt: 'stuck: cancel 1236' });
    runs.noWorker = started.workflowId;
    const problem = (await hitl.diagnose(runs.noWorker))!;
    expect(problem).toMatchObject({ kind: 'no_worker', since: expect.stringMatching(ISO) });
    expect(problem.advice[0]).toContain(`No worker polls task queue ${queue}`);

    expect((await request('GET', `/api/runs/${runs.noWorker}`)).body).toMatchObject({
      status: 'Running',
      prompt: 'stuck: cancel 1236',
      problem: { kind: 'no_worker', since: problem.since },
    });
    expect((await request('GET', '/api/runs?stuck=true&agent=stuckdemo')).body.map((r: any) => r.workflowId)).toContain(runs.noWorker);
    const refused = await request(
      'POST',
      `/api/approvals/${encodeApprovalId({ workflowId: runs.noWorker, callId: 'call-1' })}/approve`,
      {},
    );
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'run_stuck' } } });

    const shown = await runHitl(h, ['show', runs.noWorker]);
    expect(shown.stdout).toMatch(/^STUCK: no worker polls its task queue$/m);
    expect(shown.stdout).toContain(`Since: ${problem.since}`);
    expect((await runHitl(h, ['runs', '--stuck', '--agent', 'stuckdemo'])).stdout).toContain(runs.noWorker);
    const approved = await runHitl(h, ['approve', runs.noWorker, 'call-1']);
    expect(approved.code).toBe(5);
    expect(approved.stderr).toContain('no worker polls its task queue');
  });

  it('is reported stuck when its worker goes away while it waits, in the API and the inbox', { timeout: 180_000 }, async () => {
    const handle = await h.start({ agent: 'stuckdemo', prompt: 'stuck: cancel 1237' });
    runs.gone = handle.workflowId;
    await waitForPending(handle, 1);
    await item(runs.gone).waitFor();
    h.worker.shutdown();
    await waitFor(() => h.worker.getState() === 'STOPPED', 60_000, 'the worker to stop');
    // An idle worker's poll is renewed about once a minute; the test does not wait that long to call it gone.
    health.workerGoneAfterMs = 2_000;
    const problem = await waitForProblem(runs.gone, 'no_worker');

    // Without the check, the query would wait ~30 s and fail, and the decision would wait for ever.
    expect((await request('GET', `/api/runs/${runs.gone}`)).body).toMatchObject({
      status: 'AwaitingApproval',
      pending: [{ id: 'call-1', toolName: 'cancel_order' }],
      problem: { kind: 'no_worker', since: problem.since },
    });
    const approvalId = encodeApprovalId({ workflowId: runs.gone, callId: 'call-1' });
    expect(await request('POST', `/api/approvals/${approvalId}/approve`, {})).toMatchObject({
      status: 409,
      body: { error: { code: 'run_stuck', message: expect.stringContaining('no worker polls its task queue') } },
    });

    await item(runs.gone).click();
    const notice = page.locator('.detail .stuck');
    await notice.waitFor();
    expect(await notice.locator('h3').textContent()).toBe('This run is stuck: no worker is polling its task queue');
    expect(await notice.locator('.advice li').allInnerTexts()).toEqual(problem.advice);
    expect(await page.locator('.detail .decide').count()).toBe(0);
    expect(existsSync(await screenshot(page, 'inbox-stuck-no-worker.png'))).toBe(true);
    expect(browser.pageErrors).toEqual([]);
  });
});
