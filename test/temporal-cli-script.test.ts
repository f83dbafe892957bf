/**
 * `npm run --silent temporal-cli` prints the binary's path alone on stdout, so a shell can run what it prints:
 * `$(npm run --silent temporal-cli) workflow list`. Where the binary was found goes to stderr.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { cachedCliPath, SQLITE_DRIVER, TEMPORAL_CLI_VERSION } from '../src/dev/temporal-cli.js';

const run = promisify(execFile);

describe('npm run temporal-cli', () => {
  it('prints only the path on stdout, and where it was found on stderr', async () => {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'temporal-cli']);
    // The same binary the suite's dev server runs, found the same way.
    expect(stdout).toBe(`${inject('temporalCliPath')}\n`);
    expect(stderr).toMatch(/^\[temporal-cli\] found: (env|path|cache|go-build|sdk-download)\n$/);
  });

  it('runs as `$(npm run --silent temporal-cli) …` in a shell', async () => {
    const { stdout } = await run('sh', ['-c', '"$(npm run --silent temporal-cli 2>/dev/null)" --version']);
    expect(stdout.split(' (')[0]).toBe(`temporal version ${TEMPORAL_CLI_VERSION}`);
  });

  // A CLI from TEMPORAL_CLI_PATH or PATH is the user's; only our own build is known to carry the newer driver.
  it.runIf(inject('temporalCliPath') === cachedCliPath())(
    'our build carries the SQLite driver that reopens an interrupted connection',
    async () => {
      const { stdout } = await run('go', ['version', '-m', cachedCliPath()]);
      const [module, version] = SQLITE_DRIVER.split('@');
      expect(stdout).toMatch(new RegExp(`\\bdep\\s+${module!.replaceAll('.', '\\.')}\\s+${version}\\s`));
      expect(stdout).toMatch(new RegExp(`\\bmod\\s+github\\.com/temporalio/cli\\s+v${TEMPORAL_CLI_VERSION}\\s`));
    },
  );
});

describe('npm run temporal-server', () => {
  it('prints the two paths alone on stdout, one a line, and where they were found on stderr', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hitl-server-paths-'));
    try {
      const [server, sqlTool] = ['temporal-server', 'temporal-sql-tool'].map((name) => path.join(dir, name));
      for (const file of [server!, sqlTool!]) {
        writeFileSync(file, '#!/bin/sh\n');
        chmodSync(file, 0o755);
      }
      const env = { ...process.env, TEMPORAL_SERVER_PATH: server, TEMPORAL_SQL_TOOL_PATH: sqlTool };
      const { stdout, stderr } = await run('npm', ['run', '--silent', 'temporal-server'], { env });
      expect(stdout).toBe(`${server}\n${sqlTool}\n`);
      expect(stderr).toBe('[temporal-server] found: env\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
