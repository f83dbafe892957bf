/** Debian's Chromium, headless, driven by playwright-core: the browser the inbox tests use. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Where screenshots go; CI keeps this directory as an artifact. */
export const SCREENSHOTS = path.resolve('test-results');

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors other than refused requests (a CSP violation, say): each one is a bug. */
  pageErrors: string[];
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium).`);
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'hitl-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1366, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  page.on(
    'console',
    (message) =>
      message.type() === 'error' && !message.text().startsWith('Failed to load resource') && pageErrors.push(`console: ${message.text()}`),
  );
  return {
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot under test-results/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, name);
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
