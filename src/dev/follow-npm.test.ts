/**
 * An entry point started by npm stops when npm's shell is gone (a supervisor signalled npm alone), or npm itself while
 * its shell lives on, and one started another way outlives its parent. The stand-in for npm's shell is `sh`, killed
 * with SIGKILL (for npm, an outer `sh`); its child is a real node process that calls stopWhenNpmStops and says when it
 * gets SIGTERM.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processIdentity } from './leftover-dev-server.js';

const module = path.resolve('src/dev/follow-npm.ts');
const script = `
  import { stopWhenNpmStops } from ${JSON.stringify(module)};
  process.on('SIGTERM', () => { console.log('SIGTERM'); process.exit(0); });
  const follow = () => stopWhenNpmStops({ intervalMs: 50 });
  // FOLLOW_LATE: called only once the shell is gone, as when npm is stopped right after an entry point's banner.
  const startedUnder = process.ppid;
  const late = setInterval(() => process.ppid !== startedUnder && (clearInterval(late), follow()), 20);
  if (!process.env.FOLLOW_LATE) (clearInterval(late), follow());
  setInterval(() => {}, 1000);
  console.log('pid ' + process.pid);
`;

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * sh runs node and waits for it (`; true`: no exec), like npm's script shell; the shell is then SIGKILLed. With
 * `shellOutlivesNpm`, an outer sh stands for npm and is the one killed: the script shell lives on.
 */
async function orphan(
  env: NodeJS.ProcessEnv,
  options: { shellOutlivesNpm?: boolean } = {},
): Promise<{ pid: number; output: () => string; exited: Promise<void> }> {
  const scriptShell = `node --import tsx --input-type=module -e ${quote(script)}; true`;
  const command = options.shellOutlivesNpm ? `sh -c ${quote(scriptShell)}; true` : scriptShell;
  const shell = spawn('sh', ['-c', command], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => shell.stdout.once('close', () => resolve()));
  shell.stdout.on('data', (d: Buffer) => (output += d));
  const pid = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start: ${output}`)), 20_000);
    shell.stdout.on('data', () => {
      const match = /pid (\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
  });
  shell.kill('SIGKILL');
  return { pid, output: () => output, exited };
}

describe('stopWhenNpmStops', () => {
  it('stops the process as for SIGTERM once the shell npm started it under is gone', { timeout: 30_000 }, async () => {
    const { output, exited } = await orphan({ ...process.env, npm_lifecycle_event: 'start' });
    // Its output closes when it exits: its handler ran, and exited.
    await exited;
    expect(output()).toContain('SIGTERM');
  });

  it('stops it when npm was gone before it was asked to follow npm', { timeout: 30_000 }, async () => {
    const { output, exited } = await orphan({ ...process.env, npm_lifecycle_event: 'start', FOLLOW_LATE: '1' });
    await exited;
    expect(output()).toContain('SIGTERM');
  });

  it('stops it too when npm is gone but its script shell lives on', { timeout: 30_000 }, async () => {
    const { output, exited } = await orphan({ ...process.env, npm_lifecycle_event: 'start' }, { shellOutlivesNpm: true });
    await exited;
    expect(output()).toContain('SIGTERM');
  });

  it('leaves a process not started by npm running when its parent goes', { timeout: 30_000 }, async () => {
    const env = { ...process.env };
    delete env.npm_lifecycle_event;
    const { pid, output } = await orphan(env);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(processIdentity(pid)).toBeDefined();
    process.kill(pid, 'SIGKILL');
    expect(output()).not.toContain('SIGTERM');
  });
});
