/**
 * The inbox's run transcript, live, in a real browser (Debian's Chromium, driven by playwright-core) against the
 * real API, worker and dev server: a call decided elsewhere shows up in the selected run's transcript without a
 * reload, and after the page's own decision the run it unblocked is followed, the model's text appearing while
 * its step still runs. Screenshot: test-results/inbox-live.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { runStateQuery } from '../src/contract/messages.js';
import type { Listening } from '../src/api/listen.js';
import { startTestApi } from './helpers/api.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { launchBrowser, SCREENSHOTS, type Browser } from './helpers/browser.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { modelCallRunning } from './helpers/stream.js';

const TOKEN = 'alice-live-token-0123456789';
const ANSWER =
  'The note is written. While you watch, this answer arrives a few words at a time, as the model writes it, ' +
  'and the page shows each piece as soon as the run has it, long before the step is over.';
const CUT_ANSWER = 'The note is written, though this page never heard it from the stream.';
const HUNG_ANSWER = 'The note is written; the page heard it on a second connection, the first having hung.';
const agent = defineAgent({ ...demoAgent, name: 'livedemo' });
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let h: Harness;
let api: Listening;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  h = await startHarness({
    agents: { livedemo: agent },
    streaming: { batchIntervalMs: 100 },
    script: {
      conversations: [
        {
          match: 'live note',
          replies: [
            {
              toolCalls: [call('n1', 'write_file', { path: 'live.txt', content: 'one' }), call('n2', 'cancel_order', { orderId: '1235' })],
            },
            { content: ANSWER, chunkSize: 4, chunkDelayMs: 90 },
          ],
        },
        {
          match: 'hung stream',
          replies: [{ toolCalls: [call('h1', 'write_file', { path: 'hung.txt', content: 'one' })] }, { content: HUNG_ANSWER }],
        },
        {
          match: 'cut stream',
          replies: [{ toolCalls: [call('c1', 'write_file', { path: 'cut.txt', content: 'one' })] }, { content: CUT_ANSWER }],
        },
      ],
    },
  });
  api = await startTestApi(h, { tokens: { [TOKEN]: { approver: 'alice', groups: ['finance'] } } });
  browser = await launchBrowser();
  page = browser.page;
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && pageErrors.push(m.text()));
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await h?.close();
});

const transcript = () => page.locator('.context .transcript').innerText();
const heading = () => page.locator('.context h3').innerText();

/** The token lives in the tab's sessionStorage: signed in once, the page stays signed in. */
async function signIn(): Promise<void> {
  const field = page.getByLabel('API token');
  if (!(await field.isVisible())) return;
  await field.fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the inbox on the run's one pending call, live, and approves it from the page. */
async function approveFromPage(handle: WorkflowHandle): Promise<void> {
  await waitForPending(handle, 1);
  await page.goto(`${api.url}/?agent=livedemo`);
  await signIn();
  const item = encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1' });
  await page.locator(`.approval-item[data-approval-id="${item}"]`).click();
  await expect.poll(heading).toContain('live');
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.locator('#followed-title').waitFor();
}

describe('the inbox follows the selected run live', () => {
  it("shows a decision made elsewhere, the tool's result, then the model's text as it is written", async () => {
    const handle = await h.start({ agent: 'livedemo', prompt: 'Write the live note and cancel 1235' });
    await waitForPending(handle, 2);
    await page.goto(`${api.url}/?agent=livedemo`);
    await page.getByLabel('API token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const second = encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-2' });
    const selected = () => page.locator('.approval-item[aria-current="true"]').getAttribute('data-approval-id');
    // The page selects the first item by itself; then this one.
    await expect.poll(selected).not.toBeNull();
    await page.locator(`.approval-item[data-approval-id="${second}"]`).click();
    await expect.poll(selected).toBe(second);
    await expect.poll(() => page.locator('.context h3').innerText()).toContain('live');

    // Someone else approves the first call: the page has it, and the write's result, without a reload.
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'bob' });
    await expect.poll(transcript, { timeout: 20_000 }).toContain('write_file (call-1) approved by bob.');
    await expect.poll(transcript, { timeout: 20_000 }).toMatch(/Tool result\s+Wrote \d+ bytes to live\.txt/);
    expect(await selected()).toBe(second);

    // This page approves the second; nothing is left to select, so the run it unblocked stays in view.
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.locator('#followed-title').waitFor();
    expect(await page.locator('#followed-title').innerText()).toBe('Approved cancel_order; the run goes on.');

    // The answer appears piece by piece while the model call is still running.
    const live = page.locator('.message.live .live-text');
    await expect.poll(async () => (await live.count()) > 0 && (await live.innerText()).length > 0, { timeout: 30_000 }).toBe(true);
    const firstSeen = await live.innerText();
    expect(ANSWER.startsWith(firstSeen)).toBe(true);
    expect(firstSeen.length).toBeLessThan(ANSWER.length);
    expect(await modelCallRunning(handle)).toBe(true);
    await expect.poll(async () => (await live.count()) > 0 && (await live.innerText()).length > firstSeen.length).toBe(true);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-live.png'), fullPage: true });

    // Then the step's reply replaces the live text, and the run's end is shown.
    await expect.poll(transcript, { timeout: 30_000 }).toContain('The run ended: Completed.');
    expect(await transcript()).toContain(ANSWER);
    expect(await page.locator('.message.live').count()).toBe(0);
    // "live" goes when the stream's `end` arrives, after the API has read the closed run's rest by query (a replay
    // on the worker), which can come a moment after the run's last event is shown.
    await expect.poll(() => page.locator('.context h3').innerText(), { timeout: 30_000 }).not.toContain('live');
    expect(pageErrors).toEqual([]);
  });

  it('shows the end of a run whose stream never reaches the page', { timeout: 90_000 }, async () => {
    // Every request for the run's stream fails, as if something between the run and the page had cut it.
    const cut = /\/api\/runs\/[^/]+\/events/;
    await page.route(cut, (route) => route.abort());
    try {
      const handle = await h.start({ agent: 'livedemo', prompt: 'Write the note over a cut stream' });
      await approveFromPage(handle);
      expect((await handle.result()) as { output: string }).toMatchObject({ output: CUT_ANSWER });
      // The run has ended and the stream never said so: a few polls later the page stops following and shows the run
      // as it ended, from its state.
      await expect.poll(heading, { timeout: 30_000 }).not.toContain('live');
      expect(await transcript()).toContain(CUT_ANSWER);
      expect(await transcript()).toContain('The run ended: Completed.');
      expect(pageErrors).toEqual([]);
    } finally {
      await page.unroute(cut);
    }
  });

  it('replaces a stream that hangs while its run moves on', { timeout: 90_000 }, async () => {
    // The first request for the run's stream never gets its answer, as behind a proxy that holds it; later ones pass.
    const events = /\/api\/runs\/[^/]+\/events/;
    const requests: { from: string | null; lastEventId: string | undefined }[] = [];
    await page.route(events, async (route) => {
      const url = new URL(route.request().url());
      requests.push({ from: url.searchParams.get('from'), lastEventId: route.request().headers()['last-event-id'] });
      if (requests.length > 1) await route.continue();
    });
    // A session run stays open after its answer, so only the stream can bring that answer while the page follows it.
    const handle = await h.start({ agent: 'livedemo', prompt: 'Write the note over a hung stream', session: {} });
    try {
      await approveFromPage(handle);
      await expect.poll(async () => (await handle.query(runStateQuery)).status, { timeout: 30_000 }).toBe('AwaitingMessage');
      // Within two polls of the run moving on, the page drops the hung request and asks again from where it was.
      await expect.poll(transcript, { timeout: 30_000 }).toContain(HUNG_ANSWER);
      expect(await heading()).toContain('live');
      expect(requests.length).toBeGreaterThanOrEqual(2);
      expect(requests[1]).toEqual(requests[0]);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.unroute(events);
      await handle.terminate('test over');
    }
  });
});
