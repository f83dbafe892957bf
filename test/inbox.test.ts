/**
 * The approval inbox page in a real browser (Debian's Chromium, driven by playwright-core) against the real API,
 * worker and dev server: sign-in, a call the user may only look at, filters, folded arguments, respond, an edit
 * refused in the page and then sent, the keyboard, a 409 in plain words, live updates, bulk decisions and partial
 * approvals. Screenshots go to test-results/ (inbox.png, inbox-phone.png, inbox-who-decides.png).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { HitlClient } from '../src/client/hitl-client.js';
import type { Listening } from '../src/api/listen.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { startUnansweringRun } from './helpers/unanswering-run.js';
import { startTestApi } from './helpers/api.js';
import { launchBrowser, screenshot, type Browser } from './helpers/browser.js';

/** "Refund of " and a reversed "0001" (reads "1000"), then "IGNORE" in invisible tag characters; a flag stays whole. */
const TAGS = [...'IGNORE'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const SCOTLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
const HIDDEN_CONTENT = `Refund of \u202e0001\u202c ${SCOTLAND}${TAGS}`;
/** Over the 8 KiB that lists show of a call's arguments: they list a preview. */
const BIG_CONTENT = `${'All refunds of the quarter, one by one. '.repeat(250)}THE END`;
const LONG_REPORT = '# Refunds this quarter\n\n' + 'Order 1234 was refunded in part after a late delivery. '.repeat(12);
const agent = defineAgent({ ...demoAgent, name: 'inboxdemo' });
/** A team whose cancellations need two approvers from finance. */
const team = defineAgent({
  name: 'inboxteam',
  instructions: 'You are a support agent.',
  tools: ['cancel_order', 'write_file'],
  approval: { tools: { write_file: true, cancel_order: { approvers: ['finance'], requiredApprovals: 2 } } },
});
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const TOKENS = {
  'alice-inbox-token-0123456789': { approver: 'alice', groups: ['finance'] },
  'bob-inbox-token-01234567890': { approver: 'bob', groups: ['support'] },
};
type Who = 'alice' | 'bob';
const tokenOf = (who: Who) => Object.entries(TOKENS).find(([, id]) => id.approver === who)![0];

let h: Harness;
let api: Listening;
let browser: Browser;
let page: Page;
let pageErrors: string[];
const failedResponses: string[] = [];
const runs = { refund: '', report: '', cancelOne: '', cancelTwo: '', race: '' };
/** Requests the page has sent and not yet seen answered. */
const inFlight = new Set<Request>();
const approvalId = (run: keyof typeof runs, callId: string) => encodeApprovalId({ workflowId: runs[run], callId });

async function request(who: Who, method: string, urlPath: string, body?: unknown) {
  const response = await fetch(`${api.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${tokenOf(who)}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function startRun(prompt: string, agentName = 'inboxdemo') {
  const started = await request('bob', 'POST', '/api/runs', { agent: agentName, prompt });
  expect(started.status).toBe(201);
  return started.body.workflowId as string;
}

const item = (id: string) => page.locator(`.approval-item[data-approval-id="${id}"]`);
const selectedId = () => page.locator('.approval-item[aria-current="true"]').getAttribute('data-approval-id');
const listedIds = () => page.locator('.approval-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-approval-id')!));
const decisionButtons = () => page.locator('.decide .buttons button').allTextContents();
/** Waits for the Approve button to take a click: the call has been on screen long enough to be read. */
const approveEnabled = () => page.locator('.decide .buttons button.primary:enabled', { hasText: 'Approve' }).waitFor();

/** Presses j or k until `id` is selected, checking each step moves the selection by one. */
async function moveTo(id: string) {
  const ids = await listedIds();
  for (;;) {
    const at = ids.indexOf((await selectedId())!);
    const target = ids.indexOf(id);
    if (at === target) return;
    await page.keyboard.press(target > at ? 'j' : 'k');
    await expect.poll(selectedId).toBe(ids[target > at ? at + 1 : at - 1]);
  }
}

async function signIn(who: Who, agentName = 'inboxdemo') {
  await page.goto(`${api.url}/?agent=${agentName}`);
  await page.getByLabel('API token').fill(tokenOf(who));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.identity').waitFor();
}

beforeAll(async () => {
  h = await startHarness({
    agents: { inboxdemo: agent, inboxteam: team },
    script: {
      conversations: [
        {
          match: 'inbox refund',
          replies: [{ toolCalls: [call('r1', 'process_refund', { orderId: '1234', amount: 12000 })] }, { content: 'refund handled' }],
        },
        {
          match: 'inbox report',
          replies: [
            { toolCalls: [call('w1', 'write_file', { path: 'reports/refunds.md', content: LONG_REPORT })] },
            { content: 'report handled' },
          ],
        },
        {
          match: 'team write',
          replies: [{ toolCalls: [call('tw', 'write_file', { path: 'team.txt', content: 't' })] }, { content: 'written' }],
        },
        {
          match: 'team write proposed',
          replies: [{ toolCalls: [call('tp', 'write_file', { path: 'proposed.txt', content: 'p' })] }, { content: 'proposed handled' }],
        },
        { match: 'team cancel', replies: [{ toolCalls: [call('tc', 'cancel_order', { orderId: '1237' })] }, { content: 'canceled' }] },
        {
          match: 'team big',
          replies: [{ toolCalls: [call('tb', 'write_file', { path: 'big.txt', content: BIG_CONTENT })] }, { content: 'big written' }],
        },
        {
          match: 'team hidden',
          replies: [
            { toolCalls: [call('th', 'write_file', { path: 'hidden.txt', content: HIDDEN_CONTENT })] },
            { content: 'hidden written' },
          ],
        },
        {
          match: 'inbox coordinate',
          replies: [{ toolCalls: [call('a1', 'ask_researcher', { prompt: 'inbox research: a note' })] }, { content: 'coordinated' }],
        },
        {
          match: 'inbox research: a note',
          replies: [{ toolCalls: [call('n1', 'write_file', { path: 'note.md', content: 'a note' })] }, { content: 'note written' }],
        },
        {
          match: 'inbox cancel',
          replies: [{ toolCalls: [call('c1', 'cancel_order', { orderId: '1235' })] }, { content: 'cancel handled' }],
        },
      ],
    },
  });
  const hitl = new HitlClient(h.temporal.client, h.taskQueue);
  api = await startTestApi(h, { hitl, tokens: TOKENS });

  [runs.refund, runs.report, runs.cancelOne, runs.cancelTwo, runs.race] = await Promise.all(
    ['inbox refund, order 1234', 'inbox report on refunds', 'inbox cancel, first', 'inbox cancel, second', 'inbox cancel, raced'].map(
      (prompt) => startRun(prompt),
    ),
  );
  await waitFor(
    async () => (await request('alice', 'GET', '/api/approvals?agent=inboxdemo')).body.length === 5,
    60_000,
    'five pending approvals',
  );

  browser = await launchBrowser();
  ({ page, pageErrors } = browser);
  // A run's event stream stays open while its transcript is shown: not a request that is waiting for an answer.
  page.on('request', (r) => !r.url().endsWith('/events') && !r.url().includes('/events?') && inFlight.add(r));
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  page.on(
    'response',
    (response) => response.status() >= 400 && failedResponses.push(`${response.status()} ${new URL(response.url()).pathname}`),
  );
  // Lets the 409 test hold the page's polling still while the same call is decided elsewhere.
  await page.clock.install();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await h?.close();
});

describe('approval inbox', () => {
  it('signs in with a token, shows who you are, and offers no buttons for a call you may not decide', async () => {
    await signIn('bob');
    expect(await page.locator('.identity').innerText()).toBe('Signed in as bob (support)');
    // Browser-side code as strings: this project type-checks for Node, without the DOM library.
    expect(await page.evaluate<string[]>('Object.keys(sessionStorage)')).toEqual(['hitl-inbox-token']);

    await item(approvalId('refund', 'call-1')).click();
    await page.locator('#detail-title').waitFor();
    expect(await page.locator('.view-only').innerText()).toContain('Only finance may decide this call');
    expect(await decisionButtons()).toEqual([]);
    expect(await item(approvalId('refund', 'call-1')).innerText()).toContain('view only');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('alice');
    expect(await page.locator('.identity').innerText()).toBe('Signed in as alice (finance)');
    await item(approvalId('refund', 'call-1')).click();
    await expect.poll(decisionButtons).toEqual(['Approve', 'Edit…', 'Reject…', 'Respond…']);
    // Why it waits, in the policy's words.
    expect(await page.locator('.detail-head .rule').innerText()).toBe('Waits by the rule tools.process_refund.when: amount gt 10000');
  });

  it('filters by tool, folds long argument values, and answers for the tool with respond', async () => {
    const report = approvalId('report', 'call-1');
    await page.getByRole('combobox', { name: 'Tool', exact: true }).selectOption('write_file');
    await expect.poll(listedIds).toEqual([report]);
    await expect.poll(() => new URL(page.url()).search).toBe('?agent=inboxdemo&tool=write_file');
    await page.getByRole('combobox', { name: 'Tool', exact: true }).selectOption('');
    await expect.poll(async () => (await listedIds()).length).toBe(5);

    await item(report).click();
    // One line of words, as the page shows it: markup breaks in the template once ran them together ("forthis").
    expect(await page.locator('label.checkbox').innerText()).toBe('Always approve write_file for this run');
    const content = page.locator('.arg', { has: page.locator('dt', { hasText: 'content' }) }).locator('details');
    expect(await content.getAttribute('open')).toBeNull();
    expect(await content.locator('summary .size').innerText()).toMatch(/^[\d,]+ characters, show all$/);
    await content.locator('summary').click();
    await expect.poll(() => content.getAttribute('open')).toBe('');
    expect(await content.locator('code.hljs .hljs-string').innerText()).toContain('late delivery');

    await page.getByRole('button', { name: 'Respond…' }).click();
    await page.getByLabel('Result the agent receives').fill('I wrote the report by hand.');
    await page.getByRole('button', { name: 'Send response' }).click();
    await item(report).waitFor({ state: 'detached' });
    await waitFor(async () => (await request('alice', 'GET', `/api/runs/${runs.report}`)).body.status === 'Completed');
    const run = (await request('alice', 'GET', `/api/runs/${runs.report}`)).body;
    expect(run.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content)).toEqual(['I wrote the report by hand.']);
  });

  it('refuses an invalid edit in the page, sends a valid one, and the run completes with the edited arguments', async () => {
    const refund = approvalId('refund', 'call-1');
    await item(refund).click();
    const posted: string[] = [];
    const recordPost = (r: Request) => r.method() === 'POST' && posted.push(r.url());
    page.on('request', recordPost);

    const detail = page.locator('.detail');
    expect(await detail.locator('.args').innerText()).toMatch(/orderId\s+"1234"\s+amount\s+12000/);
    expect(await detail.locator('.hljs-number').first().innerText()).toBe('12000');
    expect(await detail.locator('.prompt blockquote').innerText()).toBe('inbox refund, order 1234');
    await expect.poll(() => detail.locator('.transcript').innerText()).toContain('process_refund({"orderId":"1234","amount":12000})');
    expect(await detail.locator('a', { hasText: 'Open in Temporal UI' }).getAttribute('href')).toBe(
      `http://ui.test/namespaces/default/workflows/${runs.refund}`,
    );
    expect(await detail.locator('[role=timer]').innerText()).toMatch(/^(2d 23h|3d 0h) left$/);

    await page.getByRole('button', { name: 'Edit…' }).click();
    const editor = page.getByLabel(/Arguments as JSON/);
    await editor.fill('{ "orderId": "1234", "amount": "150 dollars" }');
    await expect
      .poll(() => page.locator('#edit-check').innerText())
      .toContain('amount: Instance type "string" is invalid. Expected "number".');
    await page.getByRole('button', { name: 'Send edited arguments' }).click();
    await expect
      .poll(() => page.locator('.decision-form [role=alert]').innerText())
      .toContain('Not sent: the edited arguments do not fit the tool.');
    expect(posted).toEqual([]);
    const untouched = (await request('alice', 'GET', `/api/runs/${runs.refund}`)).body;
    expect(untouched).toMatchObject({
      status: 'AwaitingApproval',
      decisions: [],
      pending: [{ id: 'call-1', args: { orderId: '1234', amount: 12000 } }],
    });

    await editor.fill('{ "orderId": "1234", "amount": 150 }');
    await expect.poll(() => page.locator('#edit-check').innerText()).toBe('These arguments fit the tool.');
    expect(await page.locator('pre.diff del').allInnerTexts()).toEqual(['-   "amount": 12000\n']);
    expect(await page.locator('pre.diff ins').allInnerTexts()).toEqual(['+   "amount": 150\n']);
    await screenshot(page, 'inbox.png');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'inbox-phone.png');
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.getByRole('button', { name: 'Send edited arguments' }).click();
    await item(refund).waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.announcement').innerText()).toBe('Sent edited arguments for process_refund (inboxdemo).');
    expect(posted).toEqual([`${api.url}/api/approvals/${refund}/edit`]);
    page.off('request', recordPost);

    await waitFor(async () => (await request('alice', 'GET', `/api/runs/${runs.refund}`)).body.status === 'Completed');
    const run = (await request('alice', 'GET', `/api/runs/${runs.refund}`)).body;
    expect(run.decisions).toMatchObject([
      { type: 'edit', approver: 'alice', argsBefore: { orderId: '1234', amount: 12000 }, argsAfter: { orderId: '1234', amount: 150 } },
    ]);
    expect(h.shop.prepare("SELECT amount FROM refunds WHERE order_id = '1234'").all()).toEqual([{ amount: 150 }]);
  });

  it('moves with j/k, approves with a, and opens the reason prompt with r', async () => {
    const [one, two, race] = [approvalId('cancelOne', 'call-1'), approvalId('cancelTwo', 'call-1'), approvalId('race', 'call-1')];
    await expect.poll(async () => (await listedIds()).sort()).toEqual([one, two, race].sort());
    const listed = await listedIds();

    // Up to the top whatever is selected now, then down and back one by one.
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await expect.poll(selectedId).toBe(listed[0]);
    await page.keyboard.press('j');
    await expect.poll(selectedId).toBe(listed[1]);
    await page.keyboard.press('j');
    await expect.poll(selectedId).toBe(listed[2]);
    await page.keyboard.press('k');
    await expect.poll(selectedId).toBe(listed[1]);
    // A key held down moves once: its repeats are no presses (or holding `a` would approve call after call).
    await page.keyboard.press('k');
    await expect.poll(selectedId).toBe(listed[0]);
    await page.keyboard.down('j');
    for (let i = 0; i < 10; i++) await page.keyboard.down('j');
    await page.keyboard.up('j');
    await page.waitForTimeout(200);
    expect(await selectedId()).toBe(listed[1]);

    await moveTo(one);
    expect(await page.locator('.detail .prompt blockquote').innerText()).toBe('inbox cancel, first');
    // Keys act once the buttons are there (the run is known not to be stuck) and the call has been on screen a moment.
    await expect.poll(decisionButtons).toContain('Approve');
    await approveEnabled();
    const approvals: string[] = [];
    const recordApproval = (r: Request) => void (r.method() === 'POST' && r.url().endsWith('/approve') && approvals.push(r.url()));
    page.on('request', recordApproval);
    await page.keyboard.press('a');
    await item(one).waitFor({ state: 'detached' });
    // A second press as the next call's buttons come up (a double press that came late) decides nothing: nobody read it.
    await expect.poll(decisionButtons).toContain('Approve');
    await page.keyboard.press('a');
    const next = await selectedId();
    await expect.poll(() => page.locator('.announcement').innerText()).toMatch(/^Not approved: \S+ came up a moment ago/);
    await approveEnabled();
    page.off('request', recordApproval);
    expect(approvals).toEqual([`${api.url}/api/approvals/${one}/approve`]);
    expect(await selectedId()).toBe(next);
    expect((await listedIds()).sort()).toEqual([two, race].sort());
    expect((await request('alice', 'GET', `/api/runs/${runs.cancelOne}`)).body.decisions).toMatchObject([
      { type: 'approve', approver: 'alice', id: 'call-1' },
    ]);

    await moveTo(two);
    await expect.poll(decisionButtons).toContain('Reject…');
    await page.keyboard.press('r');
    await page.getByLabel('Reason (the agent is told)').waitFor();
    await expect.poll(() => page.locator('#reject-reason:focus').count()).toBe(1);
    await page.keyboard.type('Customer changed their mind');
    await page.keyboard.press('Control+Enter');
    await item(two).waitFor({ state: 'detached' });
    expect((await request('alice', 'GET', `/api/runs/${runs.cancelTwo}`)).body.decisions).toMatchObject([
      { type: 'reject', approver: 'alice', message: 'Customer changed their mind' },
    ]);
  });

  it('says in plain words that someone else already decided the call (409)', async () => {
    const race = approvalId('race', 'call-1');
    await item(race).click();
    await expect.poll(selectedId).toBe(race);
    // Hold the page's timers (its polling) so the list still shows the call after it is decided elsewhere.
    // pauseAt jumps there at once (firing what is due, waited out below), so a slow round trip cannot land in the past.
    await page.clock.pauseAt((await page.evaluate<number>('Date.now()')) + 2000);
    try {
      await expect.poll(() => inFlight.size).toBe(0);
      expect(await request('bob', 'POST', `/api/approvals/${race}/approve`, {})).toMatchObject({ status: 200 });

      const refused = page.waitForResponse((r) => r.url().endsWith(`/api/approvals/${race}/approve`));
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      expect((await refused).status()).toBe(409);
      // Whether the run has finished by then or not: a decided call stays known as decided for the life of the run.
      await expect
        .poll(() => page.locator('.decide [role=alert] strong').innerText())
        .toBe('Someone already decided this call, so your decision was not applied.');
    } finally {
      // The page is shared with the tests after this one: held timers would fail them all.
      await page.clock.resume();
    }
    await item(race).waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.empty').innerText()).toContain('Nothing is waiting for a decision');
    await expect
      .poll(() => page.locator('.announcement').innerText())
      .toBe('The call you were looking at was decided elsewhere or timed out; it left the list.');
    expect(
      (await request('alice', 'GET', `/api/runs/${runs.race}`)).body.decisions.filter((d: any) => d.outcome === 'applied'),
    ).toMatchObject([{ type: 'approve', approver: 'bob' }]);
  });

  it('shows a new approval without a reload', async () => {
    const runId = await startRun('inbox cancel, arriving late');
    await item(encodeApprovalId({ workflowId: runId, callId: 'call-1' })).waitFor();
    await expect.poll(() => page.locator('.announcement').innerText()).toBe('New approval: cancel_order in inboxdemo.');
    expect(pageErrors).toEqual([]);
    expect(failedResponses).toEqual([`409 /api/approvals/${approvalId('race', 'call-1')}/approve`]);
  });

  it('says that waiting runs the API could not read are not in the list', async () => {
    const { end } = await startUnansweringRun(h, 'inboxunread');
    try {
      await page.goto(`${api.url}/?agent=inboxunread`);
      await expect
        .poll(
          () =>
            page
              .locator('.unreadable-runs')
              .innerText()
              .catch(() => ''),
          { timeout: 60_000 },
        )
        .toMatch(/^1 waiting run could not be read by the approval API .*so their calls are not listed here/);
    } finally {
      await end();
    }
    await expect.poll(() => page.locator('.unreadable-runs').count(), { timeout: 60_000 }).toBe(0);
    await page.goto(`${api.url}/?agent=inboxdemo`);
  });
});

describe('bulk decisions and quorum in the inbox', () => {
  const checkbox = (id: string) => page.locator(`li:has(.approval-item[data-approval-id="${id}"]) input.check`);
  const first = (workflowId: string) => encodeApprovalId({ workflowId, callId: 'call-1' });
  const decisionsOf = async (workflowId: string) =>
    (await request('alice', 'GET', `/api/runs/${workflowId}`)).body.decisions.filter((d: any) => d.outcome === 'applied');

  it('approves and rejects checked calls together, keeps a partly approved call in view, and says what a run refused', async () => {
    const names = [
      'team write one',
      'team write two',
      'team cancel',
      'team write three',
      'team write four',
      'team write five',
      'team write six',
    ];
    const runIds = await Promise.all(names.map((n) => startRun(n, 'inboxteam')));
    const [w1, w2, q, r1, r2, raced, fine] = runIds.map(first);
    await waitFor(
      async () => (await request('alice', 'GET', '/api/approvals?agent=inboxteam')).body.length === 7,
      20_000,
      'seven pending approvals',
    );
    await page.goto(`${api.url}/?agent=inboxteam`);
    await page.locator('.identity').waitFor();
    await expect.poll(async () => (await listedIds()).length).toBe(7);

    // Approve three at once: two writes run; the cancel needs a second approver, so it stays, partly approved.
    for (const id of [w1!, w2!, q!]) await checkbox(id).check();
    await page.getByRole('button', { name: 'Approve checked' }).click();
    await expect.poll(() => page.locator('.announcement').innerText()).toBe('Approved 3 calls.');
    await item(w1!).waitFor({ state: 'detached' });
    await item(w2!).waitFor({ state: 'detached' });
    await expect.poll(() => item(q!).innerText()).toContain('1 of 2 approvals');
    await expect.poll(() => checkbox(q!).count()).toBe(0);
    await item(q!).click();
    await expect
      .poll(() => page.locator('.who-decides').innerText())
      .toContain('Needs 2 approvals from different people: 1 so far (alice), 1 to go.');
    expect(await page.locator('.view-only').innerText()).toBe(
      'You have approved this call; it waits for 1 more approval from other people.',
    );
    for (const id of [r1!, r2!]) await checkbox(id).check();
    await screenshot(page, 'inbox-who-decides.png');
    for (const id of [r1!, r2!]) await checkbox(id).uncheck();

    // Reject two at once, with one reason for both agents.
    for (const id of [r1!, r2!]) await checkbox(id).check();
    await page.getByRole('button', { name: 'Reject checked…' }).click();
    await page.getByLabel('Reason (each agent is told)').fill('Not this week');
    await page.getByRole('button', { name: 'Reject 2' }).click();
    await item(r1!).waitFor({ state: 'detached' });
    await item(r2!).waitFor({ state: 'detached' });

    // A call decided elsewhere while checked: its run refuses (409) and nothing of it is decided; the other run's is.
    for (const id of [raced!, fine!]) await checkbox(id).check();
    // pauseAt jumps there at once (firing what is due, waited out below), so a slow round trip cannot land in the past.
    await page.clock.pauseAt((await page.evaluate<number>('Date.now()')) + 2000);
    try {
      await expect.poll(() => inFlight.size).toBe(0);
      expect(await request('bob', 'POST', `/api/approvals/${raced}/reject`, { reason: 'bob was first' })).toMatchObject({ status: 200 });
      await page.getByRole('button', { name: 'Approve checked' }).click();
      await expect
        .poll(() => page.locator('.bulk [role=alert] strong').innerText())
        .toBe('inboxteam (1 call, none decided): Someone already decided this call, so your decision was not applied.');
      expect(await page.locator('.announcement').innerText()).toBe('Approved 1 call. 1 call in 1 run not decided.');
    } finally {
      await page.clock.resume();
    }
    await item(fine!).waitFor({ state: 'detached' });

    const decided = await Promise.all([runIds[0]!, runIds[3]!, runIds[5]!].map(decisionsOf));
    expect(decided.map((ds) => ds.map((d: any) => [d.type, d.approver, d.message]))).toEqual([
      [['approve', 'alice', undefined]],
      [['reject', 'alice', 'Not this week']],
      [['reject', 'bob', 'bob was first']],
    ]);
    expect(pageErrors).toEqual([]);
  });
});

describe('hidden characters in the inbox', () => {
  it('shows bidi controls and tag characters as escapes, keeps a flag, and an unchanged edit sends the arguments as they are', async () => {
    const runId = await startRun('team hidden \u200bcharacters', 'inboxteam');
    const id = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    await page.goto(`${api.url}/?agent=inboxteam`);
    await item(id).click();
    const detail = page.locator('.detail');
    const shown = await detail.locator('.args').innerText();
    expect(shown).toContain(`Refund of \\u202e0001\\u202c ${SCOTLAND}\\udb40\\udc49\\udb40\\udc47`);
    expect(shown).not.toMatch(/[\u202e\u202c]|[\u{E0041}-\u{E005A}]/u);
    await expect.poll(() => detail.locator('.prompt blockquote').innerText()).toBe('team hidden \\u200bcharacters');
    await expect.poll(() => detail.locator('.transcript').innerText()).toContain('\\udb40\\udc49');
    expect(await detail.innerText()).not.toMatch(/[\u200b\u202e]/);
    // A shared link's filter shows what it holds, hidden characters included.
    await page.goto(`${api.url}/?agent=inbox\u202eteam`);
    await expect.poll(() => page.getByLabel('Agent', { exact: true }).inputValue()).toBe('inbox\\u202eteam');
    // The browser lists the agents it offers as they are written: the link's agent is among them, escaped.
    const offered = await page
      .locator('#agent-options option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    expect(offered).toContain('inbox\\u202eteam');
    expect(offered.join('')).not.toMatch(/\u202e/);
    await page.goto(`${api.url}/?agent=inboxteam`);
    await item(id).click();

    await page.getByRole('button', { name: 'Edit…' }).click();
    const editor = page.getByLabel(/Arguments as JSON/);
    expect(await editor.inputValue()).toContain('\\u202e0001');
    await page.getByRole('button', { name: 'Send edited arguments' }).click();
    await item(id).waitFor({ state: 'detached' });
    await waitFor(async () => (await request('alice', 'GET', `/api/runs/${runId}`)).body.status === 'Completed');
    const run = (await request('alice', 'GET', `/api/runs/${runId}`)).body;
    expect(run.decisions).toMatchObject([{ type: 'edit', argsAfter: { path: 'hidden.txt', content: HIDDEN_CONTENT } }]);
    expect(pageErrors).toEqual([]);
  });
});

describe('long unbroken text in the inbox', () => {
  it('wraps a prompt of thousands of escapes within the pane, the call and its buttons in view', async () => {
    const runId = await startRun(`team cancel ${'\u0001'.repeat(3000)}`, 'inboxteam');
    const id = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    await page.goto(`${api.url}/?agent=inboxteam`);
    await item(id).click();
    const detail = page.locator('.detail');
    await expect.poll(() => detail.locator('.prompt blockquote').innerText()).toContain('\\u0001\\u0001');
    await expect.poll(() => detail.locator('.transcript').innerText()).toContain('\\u0001');
    // Nothing wider than the pane: the page does not scroll sideways, and the heading and Approve are where one sees them.
    const overflow = (selector: string) => page.locator(selector).evaluate((e) => e.scrollWidth - e.clientWidth);
    const widths = { page: await overflow('html'), pane: await overflow('.detail') };
    expect(widths).toEqual({ page: 0, pane: 0 });
    const paneBox = (await detail.boundingBox())!;
    for (const visible of [detail.locator('h2'), page.getByRole('button', { name: 'Approve', exact: true })]) {
      const box = (await visible.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(paneBox.x + paneBox.width);
    }
    await screenshot(page, 'inbox-long-prompt.png');
    await request('alice', 'POST', `/api/approvals/${id}/reject`, { reason: 'layout checked' });
    expect(pageErrors).toEqual([]);
  });
});

describe('a proposal in the inbox', () => {
  let runId = '';
  let id = '';
  it('says who proposed it, by an edit of which call', async () => {
    runId = await startRun('team write proposed', 'inboxteam');
    await waitFor(async () => (await request('bob', 'GET', `/api/runs/${runId}`)).body.pending?.length === 1, 20_000, 'the write');
    const edit = { decisions: [{ id: 'call-1', type: 'edit', name: 'cancel_order', args: { orderId: '1238' } }] };
    expect((await request('bob', 'POST', `/api/runs/${runId}/decisions`, edit)).status).toBe(200);
    id = encodeApprovalId({ workflowId: runId, callId: 'call-1.2' });
    await page.goto(`${api.url}/?agent=inboxteam`);
    await item(id).click();
    await expect
      .poll(() => page.locator('.who-decides .proposed').innerText())
      .toBe('Proposed by bob by an edit of write_file (call-1): the model asked for that call, not this one.');
    expect(pageErrors).toEqual([]);
  });

  it('lets its proposer withdraw it, though he may not decide it', async () => {
    expect((await request('bob', 'GET', `/api/approvals/${id}`)).body).toMatchObject({ canDecide: false, canWithdraw: true });
    expect((await request('alice', 'GET', `/api/approvals/${id}`)).body).not.toHaveProperty('canWithdraw');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('bob', 'inboxteam');
    // The list says what is left to him, as the call's view does.
    await expect.poll(() => item(id).innerText()).toContain('withdraw only');
    await item(id).click();
    await expect.poll(() => page.locator('.view-only').innerText()).toContain('Only finance may decide this call');
    await expect.poll(decisionButtons).toEqual(['Withdraw…']);
    expect(await page.locator('.decide').innerText()).toContain('You proposed this call, so you may withdraw it.');
    await page.keyboard.press('r');
    await page.getByLabel('Reason (the agent is told)').fill('I meant to cancel another order.');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await item(id).waitFor({ state: 'detached' });
    await waitFor(async () => (await request('alice', 'GET', `/api/runs/${runId}`)).body.status === 'Completed');
    const run = (await request('alice', 'GET', `/api/runs/${runId}`)).body;
    expect(run.decisions.filter((d: any) => d.outcome === 'applied')).toMatchObject([
      { type: 'edit', approver: 'bob' },
      { type: 'reject', approver: 'bob', message: 'I meant to cancel another order.' },
    ]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('alice', 'inboxteam');
    expect(pageErrors).toEqual([]);
  });
});

describe('large arguments in the inbox', () => {
  it("shows the call whole, not the list's preview, and edits and approves it whole", async () => {
    const runId = await startRun('team big', 'inboxteam');
    const id = encodeApprovalId({ workflowId: runId, callId: 'call-1' });
    await waitFor(
      async () => (await request('alice', 'GET', '/api/approvals?agent=inboxteam')).body.find((a: any) => a.id === id)?.argumentsTruncated,
      20_000,
      'listed as a preview',
    );
    // From the run's memo, which lists it as every list does since patch set 17 (before, whole and unmarked there).
    const { memo } = await h.temporal.client.workflow.getHandle(runId).describe();
    expect((memo?.pendingApprovals as { argsTruncated?: boolean }[])[0]?.argsTruncated).toBe(true);
    await page.goto(`${api.url}/?agent=inboxteam`);
    await item(id).waitFor();
    // Never decided in bulk, on the list's preview: no checkbox.
    expect(await page.locator(`li:has(.approval-item[data-approval-id="${id}"]) input.check`).count()).toBe(0);
    // A whole fetch that fails is said, the call stays undecidable, and the page tries again.
    const whole = `**/api/approvals/${id}`;
    await page.route(whole, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unavailable', message: 'restarting' } }),
      }),
    );
    await item(id).click();
    const failure = page.locator('.decide .refusal');
    await expect.poll(() => failure.innerText()).toContain('loading it whole failed. Trying again.');
    expect(await failure.innerText()).toContain('HTTP 503: restarting');
    expect(await page.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await page.unroute(whole);
    await expect.poll(() => failure.count(), { timeout: 10_000 }).toBe(0);
    const content = page.locator('.detail .arg', { has: page.locator('dt', { hasText: 'content' }) });
    await expect
      .poll(() => content.locator('summary .size').innerText())
      .toBe(`${(BIG_CONTENT.length + 2).toLocaleString('en-US')} characters, show all`);
    await page.getByRole('button', { name: 'Edit…' }).click();
    expect(await page.getByLabel(/Arguments as JSON/).inputValue()).toContain('THE END');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Approve' }).click();
    await item(id).waitFor({ state: 'detached' });
    await waitFor(async () => (await request('alice', 'GET', `/api/runs/${runId}`)).body.status === 'Completed');
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'big.txt'), 'utf8')).toBe(BIG_CONTENT);
    expect(pageErrors).toEqual([]);
  });
});

describe("a sub-agent's call in the inbox", () => {
  it('says the step is the sub-agent’s, and that the transcript is of the run that started it', async () => {
    const parent = await startRun('inbox coordinate a note', 'coordinator');
    const id = encodeApprovalId({ workflowId: parent, callId: 'call-1/call-1' });
    await waitFor(async () => (await request('alice', 'GET', `/api/approvals/${id}`)).status === 200, 60_000, "the sub-agent's call");
    await page.goto(`${api.url}/?agent=coordinator`);
    // The page shows either the sign-in form or, once /api/me answered for a stored token, who is signed in: wait for
    // one of them, since a check before the page has answered reads "not signed in" and the form never comes.
    const signOut = page.getByRole('button', { name: 'Sign out' });
    await page.getByLabel('API token').or(signOut).waitFor();
    if (await signOut.isVisible()) await signOut.click();
    await signIn('alice', 'coordinator');
    await item(id).click();
    // The step is the researcher's own; the prompt and transcript shown are the coordinator's.
    expect(await page.locator('.detail .eyebrow').innerText()).toMatch(/researcher, a sub-agent\s+its step 1/);
    expect(await page.locator('#context-title').textContent()).toContain('The run that started this sub-agent');
    expect(await page.locator('.context .prompt blockquote').innerText()).toBe('inbox coordinate a note');
    await page.getByRole('button', { name: 'Approve' }).click();
    await item(id).waitFor({ state: 'detached' });
    await waitFor(async () => (await request('alice', 'GET', `/api/runs/${parent}`)).body.status === 'Completed');
    expect(pageErrors).toEqual([]);
  });
});
