/**
 * The suite's global setup, with the dev server and the workflow bundle stubbed: it makes a state directory only
 * for a server it starts, leaves none behind when the start fails, keeps the server's log when tests failed, and
 * warns when the CLI is not our build (which alone carries the SQLite driver that reopens an interrupted
 * connection). TMPDIR points at a directory of the test's own, so what setup leaves there can be listed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { TestProject } from 'vitest/node';
import { startDevServer, type DevServer, type DevServerOptions } from '../../src/dev/dev-server.js';
import { cachedCliPath, type CliSource } from '../../src/dev/temporal-cli.js';
import setup from '../setup/global-setup.js';

vi.mock('../../src/dev/dev-server.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/dev/dev-server.js')>()),
  startDevServer: vi.fn(),
}));
vi.mock('../../src/workflow-bundle.js', () => ({ bundleWorkflows: async () => ({ code: '' }) }));

const SERVER_LOG = 'GetNamespace operation failed. Error interrupted (9)\n';
let tmp: string;
let warn: MockInstance<typeof console.warn>;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'hitl-global-setup-'));
  vi.stubEnv('TMPDIR', tmp);
  vi.stubEnv('TEMPORAL_ADDRESS', '');
  vi.spyOn(console, 'log').mockImplementation(() => {});
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.mocked(startDevServer).mockReset();
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(tmp, { recursive: true, force: true });
});

/** What startDevServer returns for these options; with a dbFile, its log beside it, as the real one writes. */
function serveWith(cliSource: CliSource = 'cache', cliPath = cachedCliPath(), stop = async () => {}): void {
  vi.mocked(startDevServer).mockImplementationOnce(async (options: DevServerOptions = {}): Promise<DevServer> => {
    const logFile = options.dbFile && path.join(path.dirname(options.dbFile), 'dev-server.log');
    if (logFile) writeFileSync(logFile, SERVER_LOG);
    return {
      address: '127.0.0.1:7233',
      namespace: 'default',
      owned: true,
      cliPath,
      cliSource,
      logFile,
      stop,
      kill: async () => {},
    };
  });
}

function project(failedTests = 0): TestProject {
  return { provide: () => {}, vitest: { state: { getCountOfFailedTests: () => failedTests } } } as unknown as TestProject;
}

const warnings = () => warn.mock.calls.map((call) => String(call[0]));

describe('global setup', () => {
  it('makes no state directory for the server at TEMPORAL_ADDRESS', async () => {
    vi.stubEnv('TEMPORAL_ADDRESS', '127.0.0.1:7233');
    serveWith();
    const teardown = await setup(project());
    expect(vi.mocked(startDevServer).mock.calls[0]![0]).toEqual({ uiPort: false });
    expect(readdirSync(tmp).filter((name) => name.startsWith('hitl-suite-server-'))).toEqual([]);
    await teardown();
  });

  it('starts its own server with its state in a file, and leaves nothing when no test failed', async () => {
    serveWith();
    const teardown = await setup(project(0));
    const options = vi.mocked(startDevServer).mock.calls[0]![0]!;
    expect(options.dbFile).toMatch(/hitl-suite-server-[^/]+\/temporal\.db$/);
    expect(options.sqlitePragmas).toEqual({ journal_mode: 'wal', synchronous: 'off' });
    await teardown();
    expect(readdirSync(tmp)).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it('removes the state directory (and the bundle) when the server fails to start', async () => {
    vi.mocked(startDevServer).mockRejectedValueOnce(new Error('the server did not start'));
    await expect(setup(project())).rejects.toThrow('the server did not start');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('leaves nothing behind when the server fails to stop', async () => {
    serveWith('cache', cachedCliPath(), async () => {
      throw new Error('the server did not stop');
    });
    const teardown = await setup(project(1));
    await expect(teardown()).rejects.toThrow('the server did not stop');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("keeps the server's log when tests failed, and says where", async () => {
    serveWith();
    const teardown = await setup(project(1));
    await teardown();
    const kept = readdirSync(tmp);
    expect(kept).toEqual([expect.stringMatching(/^hitl-suite-server-.+\.log$/)]);
    expect(readFileSync(path.join(tmp, kept[0]!), 'utf8')).toBe(SERVER_LOG);
    expect(warnings()).toEqual([`[global-setup] tests failed: the dev server's log is kept at ${path.join(tmp, kept[0]!)}`]);
  });

  it('warns, in one line, when the CLI is not our build', async () => {
    serveWith('path', path.join(tmp, 'temporal'));
    const teardown = await setup(project());
    await teardown();
    expect(warnings()).toEqual([expect.stringMatching(/^\[global-setup\] .*`temporal` on PATH.*interrupted SQLite connection[^\n]*$/)]);
  });
});
