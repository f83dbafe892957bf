/**
 * `npm run --silent temporal-cli` prints the binary's path alone on stdout, so a shell can run what it prints:
 * `$(npm run --silent temporal-cli) workflow list`. Where the binary was found goes to stderr.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { TEMPORAL_CLI_VERSION } from '../src/dev/temporal-cli.js';

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
});
