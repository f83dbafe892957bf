/**
 * `npm start`, `npm run worker` and `npm run api` run their TypeScript with tsx as a loader of node
 * (`node --import tsx`), not under the tsx command. The command runs the script in a child process and relays a
 * signal to it; if the child does not acknowledge the signal within about 60 ms it kills it with SIGKILL. A worker
 * busy in activations when Ctrl-C or `docker stop` comes then dies without draining: no "Stopped.", a dev server
 * left running. Run under node, the process gets the signal itself, however busy it is.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
const BUSY = 'test/fixtures/busy-until-signalled.ts';

/** Runs `command` on the busy fixture, interrupts it once it is ready, and returns what it printed and its exit code. */
function interrupted(command: string[]): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, [...command.slice(1), BUSY], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready') && !output.includes('sent')) {
        output += 'sent\n';
        child.kill('SIGINT');
      }
    });
    child.on('close', (code) => resolve({ output, code }));
  });
}

describe('long-running npm scripts', () => {
  it('run node with tsx as its loader', () => {
    for (const name of ['start', 'worker', 'api']) expect(scripts[name], name).toMatch(/^node --import tsx src\//);
  });

  it('let a busy process drain when interrupted', { timeout: 60_000 }, async () => {
    // Under the tsx command the same fixture is killed before its handler runs (exit 130, nothing printed): not
    // asserted here, since a signal that lands between two busy spells is acknowledged in time.
    const { output, code } = await interrupted(['node', '--import', 'tsx']);
    expect(output).toContain('stopped');
    expect(code).toBe(0);
  });
});
