/**
 * A run whose model API is down looks busy, not broken: Temporal retries the model call with backoff and the run
 * sees nothing until the last attempt fails. `hitl show` and GET /api/runs/{id} say what it is retrying, the
 * attempt and the newest failure, read from Temporal's description of the run; once the model answers again, the
 * run goes on and the notice is gone. Lists say it too (`hitl runs`, GET /api/runs), and so does the inbox, beside
 * a call of the same run that waits for a decision while a tool of its batch is tried again.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import type { Listening } from '../src/api/listen.js';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import type { ModelScriptInput } from '../src/model-server/script-schema.js';
import { startTestApi } from './helpers/api.js';
import { launchBrowser, screenshot } from './helpers/browser.js';
import { runHitl } from './helpers/cli.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const TOKEN = 'alice-retrying-token-0123456789';
const EMAIL = { to: 'ann@example.com', subject: 'Your order', body: 'It ships today.' };
const script: ModelScriptInput = {
  conversations: [
    { match: 'retrying model', replies: [{ content: 'answered at last' }] },
    {
      // An email (not gated: no refund in its subject) and a file to write (gated), settled together.
      match: 'retrying tool',
      replies: [
        {
          toolCalls: [
            { id: 'e1', name: 'send_email', arguments: EMAIL },
            { id: 'w1', name: 'write_file', arguments: { path: 'notes/retry.txt', content: 'x' } },
          ],
        },
        { content: 'both done' },
      ],
    },
  ],
};
/** A failure from outside, as hostile as a service's error text may be: markup for the inbox, an escape for a terminal. */
const FAILURE = 'mail server down: 421 <img src=x onerror="window.pwned=1"> \u001b[2Jtry again later';
/** The email's first attempt fails; the next ones wait (heartbeating) until the test lets them send. */
let releaseEmail!: () => void;
const emailReleased = new Promise<void>((resolve) => (releaseEmail = resolve));

let h: Harness;
let hitl: HitlClient;
let api: Listening;
/** The model server that comes back on the first one's port. */
let revived: ModelServer | undefined;

/**
 * The model API while it is down: a socket on the model's port that drops every connection. It holds the port, so
 * no server another test starts meanwhile can take it (a closed port may be handed out again, and a stranger there
 * may leave a call hanging instead of failing it).
 */
let down: Server;

beforeAll(async () => {
  down = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
  const { port } = down.address() as AddressInfo;
  // Only these fields are read of the model before the test revives it on the same port.
  const model = { baseURL: `http://127.0.0.1:${port}/v1`, port, close: async () => revived?.close() } as ModelServer;
  h = await startHarness({
    model,
    wrapTools: (tools) => ({
      ...tools,
      send_email: {
        ...tools.send_email!,
        run: async (args, ctx) => {
          if (ctx.attempt === 1) throw new Error(FAILURE);
          while (!(await Promise.race([emailReleased.then(() => true), new Promise((r) => setTimeout(r, 500, false))]))) ctx.heartbeat();
          return tools.send_email!.run(args, ctx);
        },
      },
    }),
  });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
  api = await startTestApi(h, { hitl, tokens: { [TOKEN]: { approver: 'alice', groups: ['finance'] } } });
}, 300_000);
afterAll(async () => {
  releaseEmail();
  if (down?.listening) await new Promise((resolve) => down.close(resolve));
  await api?.close();
  await h?.close();
});

/** The model server back on its port, as a test that ran before may have left it. */
async function modelUp(): Promise<void> {
  if (revived) return;
  await new Promise((resolve) => down.close(resolve));
  revived = await startModelServer({ script, port: h.model.port });
}

describe('an activity that keeps failing', () => {
  it('shows in show and the HTTP API with its attempt and failure, and goes once the model answers', { timeout: 120_000 }, async () => {
    const { workflowId } = await hitl.startRun({ agent: 'demo', prompt: 'retrying model' });
    await waitFor(async () => ((await hitl.getRun(workflowId)).retrying?.[0]?.attempt ?? 0) >= 2, 30_000, 'a retried model call');

    const { retrying } = await hitl.getRun(workflowId);
    expect(retrying).toHaveLength(1);
    expect(retrying![0]).toMatchObject({ activity: 'callModel', maximumAttempts: 10 });
    expect(retrying![0]!.lastFailure).toMatch(/^Could not reach the model API/);

    const shown = await runHitl(h, ['show', workflowId]);
    expect(shown.stdout).toMatch(
      /^Retrying the model call: attempt \d+ of 10(, next at \S+)?\. Last failure: Could not reach the model API/m,
    );

    const response = await fetch(`${api.url}/api/runs/${workflowId}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const view = (await response.json()) as { status: string; retrying?: { activity: string; attempt: number }[] };
    expect(view.status).toBe('Running');
    expect(view.retrying?.[0]?.activity).toBe('callModel');

    await modelUp();
    expect(revived!.baseURL).toBe(h.model.baseURL);
    expect(await hitl.result(workflowId)).toMatchObject({ status: 'Completed', output: 'answered at last' });
    expect((await hitl.getRun(workflowId)).retrying).toBeUndefined();
    expect((await runHitl(h, ['show', workflowId])).stdout).not.toContain('Retrying');
  });
});

describe('a run that retries while a call of it waits', () => {
  it('shows in runs, GET /api/runs and the inbox, and goes once the tool succeeds', { timeout: 180_000 }, async () => {
    await modelUp();
    const { workflowId } = await hitl.startRun({ agent: 'demo', prompt: 'retrying tool' });
    const listed = async () => (await hitl.listRuns({ agent: 'demo', open: true })).find((r) => r.workflowId === workflowId);
    await waitFor(async () => (await listed())?.retrying?.[0]?.attempt === 2, 30_000, 'the email retried');
    const run = (await listed())!;
    expect(run.status).toBe('AwaitingApproval');
    expect(run.problem).toBeUndefined();
    expect(run.retrying).toEqual([
      expect.objectContaining({
        activity: 'executeTool',
        attempt: 2,
        maximumAttempts: 3,
        lastFailure: expect.stringMatching(/mail server down/),
      }),
    ]);

    const shown = (await runHitl(h, ['show', workflowId])).stdout;
    expect(shown).toMatch(/^Retrying the tool call: attempt 2 of 3(, next at \S+)?\. Last failure: mail server down/m);
    expect(shown).not.toContain('\u001b[2J');

    const runs = await runHitl(h, ['runs', '--agent', 'demo']);
    const line = runs.stdout.split('\n').find((l) => l.includes(workflowId));
    expect(line).toMatch(/AwaitingApproval, retrying the tool call: attempt 2 of 3/);
    // A list line says what is retried, not the failure's own words (hitl show has those).
    expect(runs.stdout).not.toContain('mail server');
    expect(runs.stdout).toContain('A retrying run tries again by itself: hitl show <workflow id> says its last failure.');

    const response = await fetch(`${api.url}/api/runs?agent=demo`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { workflowId: string; retrying?: { activity: string; attempt: number }[] }[];
    expect(body.find((r) => r.workflowId === workflowId)?.retrying).toEqual([
      expect.objectContaining({ activity: 'executeTool', attempt: 2 }),
    ]);

    // The call's id as the run keeps it (a run may give calls ids of its own).
    const [waiting] = (await hitl.getRun(workflowId)).pending;
    expect(waiting?.toolName).toBe('write_file');
    const browser = await launchBrowser();
    try {
      const { page } = browser;
      await page.goto(`${api.url}/?agent=demo`);
      await page.getByLabel('API token').fill(TOKEN);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator(`.approval-item[data-approval-id="${encodeApprovalId({ workflowId, callId: waiting!.id })}"]`).click();
      const notice = page.locator('.context .retrying');
      await expect.poll(() => notice.textContent(), { timeout: 30_000 }).toMatch(/Retrying the tool call: attempt 2 of 3/);
      // The failure is text: no element made of it, nothing run, and its escape character shown as an escape.
      expect(await notice.textContent()).toContain(`Last failure: ${FAILURE.replace('\u001b', '\\u001b')}`);
      expect(await notice.locator('img').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
      expect(await notice.getAttribute('role')).toBe('status');
      await screenshot(page, 'inbox-retrying.png');

      // The email goes; the page's next poll of the run drops the notice.
      releaseEmail();
      await waitFor(async () => (await listed())?.retrying === undefined, 30_000, 'the email sent');
      await expect.poll(() => notice.count(), { timeout: 30_000 }).toBe(0);
      expect(browser.pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }

    const after = (await runHitl(h, ['runs', '--agent', 'demo'])).stdout;
    expect(after.split('\n').find((l) => l.includes(workflowId))).not.toContain('retrying the tool call');
    expect(after).not.toContain('A retrying run');
    await hitl.decide(workflowId, { decisions: [{ id: waiting!.id, type: 'approve' }], approver: 'alice' });
    expect(await hitl.result(workflowId)).toMatchObject({ status: 'Completed', output: 'both done' });
  });
});
