/**
 * The approval inbox in a real browser (Debian's Chromium) for an MCP call: the page fetches the run's recorded
 * schema (GET /api/tools?run=) and checks an edit against it before anything is sent, as it does for our tools.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import type { Listening } from '../src/api/listen.js';
import { startTestApi } from './helpers/api.js';
import { launchBrowser } from './helpers/browser.js';
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hitl-inbox-mcp-'));
const TOKEN = 'ada-inbox-mcp-token-0123456789';
const agent = defineAgent({
  name: 'inboxmcp',
  instructions: 'You write files.',
  tools: ['fs__*'],
  mcpServers: { fs: { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), dir] } },
});

let h: Harness;
let api: Listening;
let closeBrowser: (() => Promise<void>) | undefined;
let page: Page;
let pageErrors: string[] = [];

beforeAll(async () => {
  h = await startHarness({
    agents: { inboxmcp: agent },
    script: {
      conversations: [
        {
          match: 'inbox mcp write',
          replies: [
            { toolCalls: [{ id: 'w', name: 'fs__write_file', arguments: { path: path.join(dir, 'a.md'), content: 'draft' } }] },
            { content: 'written' },
          ],
        },
      ],
    },
  });
  api = await startTestApi(h, { tokens: { [TOKEN]: { approver: 'ada', groups: [] } } });
  const browser = await launchBrowser();
  closeBrowser = browser.close;
  page = browser.page;
  pageErrors = browser.pageErrors;
}, 120_000);

afterAll(async () => {
  await closeBrowser?.();
  await api?.close();
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the inbox and MCP calls', () => {
  it('checks an edit of an MCP call against the schema the run recorded, then sends it', async () => {
    const handle = await h.start({ agent: 'inboxmcp', prompt: 'inbox mcp write' });
    await waitForPending(handle, 1);
    const id = encodeApprovalId({ workflowId: handle.workflowId, callId: 'call-1' });

    await page.goto(`${api.url}/?agent=inboxmcp`);
    await page.getByLabel('API token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator(`.approval-item[data-approval-id="${id}"]`).click();
    await page.locator('#detail-title').waitFor();
    await page.getByRole('button', { name: 'Edit…' }).click();
    const editor = page.getByLabel(/Arguments as JSON/);
    await editor.fill(`{ "path": 7, "content": "final" }`);
    await expect
      .poll(() => page.locator('#edit-check').innerText())
      .toContain('path: Instance type "number" is invalid. Expected "string".');
    await editor.fill(JSON.stringify({ path: path.join(dir, 'b.md') }));
    await expect.poll(() => page.locator('#edit-check').innerText()).toContain('Instance does not have required property "content".');
    await editor.fill(JSON.stringify({ path: path.join(dir, 'b.md'), content: 'final' }));
    await expect.poll(() => page.locator('#edit-check').innerText()).toBe('These arguments fit the tool.');
    await page.getByRole('button', { name: 'Send edited arguments' }).click();

    expect((await handle.result()).status).toBe('Completed');
    expect(readFileSync(path.join(dir, 'b.md'), 'utf8')).toBe('final');
    expect(existsSync(path.join(dir, 'a.md'))).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
