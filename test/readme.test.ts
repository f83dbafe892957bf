/**
 * README.md runs as written. Every shell block, in order, runs in bash (-euo pipefail) in the checkout, against a
 * live `npm start` in a temporary state directory, as a reader's second terminal would run it: first the `export`
 * lines `npm start` printed under "Try it" (the reader's TOKEN, and TEMPORAL_ADDRESS because the test's ports are
 * not the defaults), with the `temporal` CLI on PATH. The one change made to the blocks: the API's default port,
 * 8787, becomes the free port the test picked (HITL_API_PORT). Then `npm start`'s own "Try it" lines run the same
 * way. A block passes when bash exits 0 and no command printed an API error; at the end, every run the README
 * started has finished, and the shop shows what the blocks did.
 *
 * Two blocks cannot run here, and are checked in the strongest way available instead:
 *   - "npm install / npm start / npm test": `npm start` is the process this test runs; `npm test` is the command
 *     that runs this test (it cannot run itself); `npm install` is checked by `npm ls` (the installed tree
 *     satisfies package.json).
 *   - Templates, blocks with `<placeholders>` for the reader's own account: bash parses them, every variable they set
 *     is one the configuration reads, and every npm script they run exists.
 *   - `docker compose up -d` (no Docker engine): the compose file is valid against the Compose Specification, the
 *     files it references exist, and the variables the block sets are exactly the ones compose requires, in the
 *     shape the API reads.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiTokens } from '../src/api/api-tokens.js';
import { EnvConfig } from '../src/config.js';
import { composeErrors, loadCompose } from './helpers/compose.js';
import { ctrlC, freePorts, killAll, npmStart, userEnv, type NpmStart, type Ports } from './helpers/npm-start.js';

const exec = promisify(execFile);
const README = readFileSync('README.md', 'utf8');
const SHELLS = new Set(['bash', 'sh', 'shell']);

interface Block {
  line: number;
  code: string;
}
/** The fenced shell blocks of a markdown text, with the line each starts on. */
function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (SHELLS.has(match[1]!)) blocks.push({ line: markdown.slice(0, match.index).split('\n').length, code: match[2]! });
  }
  return blocks;
}

const blocks = shellBlocks(README);
const isTwoCommands = (b: Block) => /^npm start\b/m.test(b.code);
const isCompose = (b: Block) => /\bdocker compose\b/.test(b.code);
/** A block with `<placeholders>` for the reader's own settings (a Temporal Cloud account, say). */
const isTemplate = (b: Block) => !isCompose(b) && /<[a-z][\w.-]*>/i.test(b.code);
const runnable = blocks.filter((b) => !isTwoCommands(b) && !isCompose(b) && !isTemplate(b));
/** Commands of a block, one per line, without comments and with continuations joined. */
const commandsOf = (code: string) =>
  code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-readme-'));
let ports: Ports;
let started: NpmStart;
/** The lines `npm start` printed under "Try it", and the `export` lines among them (what a reader runs first). */
let tryIt: string[];
let prelude: string;

beforeAll(async () => {
  ports = await freePorts();
  started = await npmStart(dir, ports);
  const output = started.output();
  tryIt = output
    .slice(output.indexOf('Try it'))
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter(Boolean);
  tryIt = tryIt.slice(0, tryIt.indexOf('Ctrl-C stops everything.'));
  prelude = tryIt.filter((line) => line.startsWith('export ')).join('\n');
}, 180_000);

afterAll(async () => {
  if (started) await ctrlC(started.child).catch(() => undefined);
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs shell code as a reader would in a second terminal in the checkout. */
function runShell(code: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const temporalDir = path.dirname(inject('temporalCliPath'));
  const script = `${prelude}\n${code.replace(/\b(localhost|127\.0\.0\.1):8787\b/g, `127.0.0.1:${ports.api}`)}`;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      env: userEnv({ PATH: `${temporalDir}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
  });
}

async function expectRuns(code: string, where: string): Promise<void> {
  const result = await runShell(code);
  // npm start's own output too: the API logs there why a request failed (a stream's "Following the run failed").
  const report = `${where}\n--- code\n${code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}\n--- npm start\n${started.output().slice(-4000)}`;
  expect(result.code, report).toBe(0);
  expect(result.stdout, report).not.toMatch(/"error"\s*:\s*\{/);
}

async function api(route: string): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${ports.api}${route}`, { headers: { authorization: `Bearer ${started.token}` } });
  return response.json();
}

describe('README.md', () => {
  it('has the blocks this test knows how to check', () => {
    expect(blocks.filter(isTwoCommands)).toHaveLength(1);
    expect(blocks.filter(isCompose)).toHaveLength(1);
    expect(runnable.length).toBeGreaterThanOrEqual(4);
    // What a reader runs first comes from npm start itself.
    expect(prelude).toContain(`export TOKEN=${started.token}`);
    expect(prelude).toContain(`export TEMPORAL_ADDRESS=127.0.0.1:${ports.grpc}`);
  });

  it('runs every shell block as written, in order, against a live npm start', { timeout: 1_200_000 }, async () => {
    for (const block of runnable) await expectRuns(block.code, `README.md, the block at line ${block.line}`);
  });

  it("runs npm start's own Try it lines as printed", { timeout: 300_000 }, async () => {
    expect(tryIt.some((line) => line.startsWith('RUN=$(npx hitl start'))).toBe(true);
    await expectRuns(tryIt.join('\n'), "npm start's Try it lines");
  });

  it('left every run it started finished, and the shop shows what the blocks did', async () => {
    expect(await api('/api/approvals?agent=demo')).toEqual([]);
    const runs = (await api('/api/runs?agent=demo')) as { status: string; prompt: string }[];
    const started = [...runnable.map((b) => b.code), tryIt.join('\n')].join('\n').match(/npx hitl start|\/api\/runs -d/g) ?? [];
    expect(runs).toHaveLength(started.length);
    // The runs the blocks cancel (hitl cancel, POST …/cancel) ended Canceled; every other one completed.
    const cancelled = (r: { prompt: string }) => r.prompt === 'Cancel order 1236';
    expect(runs.filter(cancelled).map((r) => r.status)).toEqual(['Canceled', 'Canceled']);
    expect(runs.filter((r) => !cancelled(r)).map((r) => r.status)).toEqual(runs.filter((r) => !cancelled(r)).map(() => 'Completed'));

    const shop = new Database(path.join(dir, 'data', 'shop.db'), { readonly: true });
    try {
      const status = (id: string) => (shop.prepare('SELECT status FROM orders WHERE id = ?').get(id) as { status: string }).status;
      // Approved by the temporal CLI's update and over HTTP; rejected everywhere; answered for by hand; refunded; the
      // cancelled runs' order untouched.
      expect([status('1235'), status('1238'), status('1237'), status('1234'), status('1236')]).toEqual([
        'canceled',
        'open',
        'open',
        'refunded',
        'shipped',
      ]);
    } finally {
      shop.close();
    }
    const outbox = readFileSync(path.join(dir, 'data', 'outbox.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).body);
    expect(outbox.sort()).toEqual(['750.00 is on its way back to your card.', 'It is on its way.']);
  });
});

describe("README.md's blocks that cannot run here", () => {
  it('"npm install, npm start, npm test": the installed tree satisfies package.json, npm start is what runs here, npm test runs this', async () => {
    const [block] = blocks.filter(isTwoCommands);
    expect(commandsOf(block!.code)).toEqual(['npm install', 'npm start', 'npm test']);
    await exec('npm', ['ls', '--depth=0'], { env: userEnv() });
    expect(started.output()).toContain(`Approval API  http://127.0.0.1:${ports.api}/api`);
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(scripts.test).toMatch(/\bvitest run$/);
    expect(readFileSync('vitest.config.ts', 'utf8')).toContain("include: ['test/**/*.test.ts']");
  });

  it('templates: bash parses them, they set only variables the configuration reads, and run only scripts that exist', async () => {
    const templates = blocks.filter(isTemplate);
    expect(templates.length).toBeGreaterThanOrEqual(1);
    const known = new Set(Object.keys(EnvConfig.shape));
    const scripts = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>);
    for (const block of templates) {
      await exec('bash', ['-n', '-c', block.code]);
      for (const command of commandsOf(block.code)) {
        const set = [...command.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!);
        expect(
          set.filter((name) => !known.has(name)),
          `README.md, the block at line ${block.line}`,
        ).toEqual([]);
        for (const [, script] of command.matchAll(/\bnpm run (\S+)/g)) expect(scripts).toContain(script);
      }
    }
  });

  it('docker compose up -d: a valid compose file whose files exist, and the variables it requires set as the API reads them', () => {
    const [block] = blocks.filter(isCompose);
    const [command] = commandsOf(block!.code);
    const assignments = [...command!.matchAll(/(\w+)=('[^']*'|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')] as const);
    expect(command).toMatch(/ docker compose up -d$/);

    const compose = loadCompose();
    expect(composeErrors(compose)).toEqual([]);
    for (const service of Object.values(compose.services)) {
      if (service.build) expect(existsSync(path.join(service.build, 'Dockerfile'))).toBe(true);
      for (const volume of service.volumes ?? []) if (volume.startsWith('./')) expect(existsSync(volume.split(':')[0]!)).toBe(true);
    }
    const required = Object.values(compose.services).flatMap((s) =>
      Object.values(s.environment ?? {}).flatMap((v) => [...String(v).matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!)),
    );
    expect(assignments.map(([name]) => name).sort()).toEqual([...new Set(required)].sort());
    const tokens = Object.fromEntries(assignments).HITL_API_TOKENS!;
    expect(ApiTokens.safeParse(JSON.parse(tokens)).success).toBe(true);
    // The scaling the text mentions names a service that exists.
    expect(README).toContain('docker compose up -d --scale worker=3');
    expect(compose.services.worker).toBeDefined();
  });
});
