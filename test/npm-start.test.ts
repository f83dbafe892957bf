/**
 * `npm start` as a user runs it: the dev server with its UI, the worker and the API come up; Ctrl-C stops it all
 * with nothing left behind, and so does a SIGTERM to npm alone; started again, the runs and tokens of the first
 * session are still there. Should its dev server die, it says so and stops with a failing exit code. Killed with
 * SIGKILL, it leaves no dev server running: the server's supervisor stops it. Should the supervisor be killed too, the
 * next `npm start` stops the server left running rather than failing with "address already in use".
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { procStatFields, processIdentity, stopLeftoverDevServer } from '../src/dev/leftover-dev-server.js';
import { waitFor } from './helpers/history.js';
import { ctrlC, freePorts, killAll, npmStart as startIn, portOpen, running, type Ports } from './helpers/npm-start.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-npm-start-'));
let ports: Ports;
const npmStart = (session = 'restarts') => startIn(path.join(dir, session), ports);

afterAll(async () => {
  killAll();
  // A failed test may have left the killed session's server running: it is recorded, so this stops it.
  await stopLeftoverDevServer(path.join(dir, 'killed', 'state')).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** Each process of a process group, as ps lists it: pid, parent, group and command line. */
function groupProcesses(pgid: number): { pid: number; line: string }[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => ({ line: line.trim(), fields: line.trim().split(/\s+/).map(Number) }))
    .filter(({ fields }) => fields[2] === pgid)
    .map(({ line, fields }) => ({ pid: fields[0]!, line }));
}

/** Each process of a process group: its ps line, how its signals stand, and whether npm's environment reached it. */
function processGroup(pgid: number): string {
  return groupProcesses(pgid)
    .map(({ pid, line }) => {
      const read = (file: string) => {
        try {
          return readFileSync(`/proc/${pid}/${file}`, 'utf8');
        } catch {
          return ''; // Gone since ps listed it, or no /proc here.
        }
      };
      const status = read('status')
        .split('\n')
        .filter((field) => /^(State|Threads|SigBlk|SigIgn|SigCgt):/.test(field))
        .join(' ');
      const underNpm =
        read('environ')
          .split('\0')
          .find((v) => v.startsWith('npm_lifecycle_event=')) ?? 'no npm_lifecycle_event';
      return `${line.slice(0, 140)}\n    ${status}; ${underNpm}; wchan ${read('wchan')}`;
    })
    .join('\n');
}

function api(token: string, method: string, route: string, body?: unknown) {
  return fetch(`http://127.0.0.1:${ports.api}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('npm start', () => {
  it('starts everything, stops cleanly on Ctrl-C, and keeps its state across restarts', { timeout: 300_000 }, async () => {
    ports = await freePorts();
    const first = await npmStart();
    expect(first.output()).toContain(`Temporal UI   http://localhost:${ports.ui}`);
    expect((await fetch(`http://localhost:${ports.ui}/`)).status).toBe(200);
    expect((await api(first.token, 'GET', '/api/me')).status).toBe(200);

    const started = (await (
      await api(first.token, 'POST', '/api/runs', { agent: 'demo', prompt: 'Refund order 1234 in full' })
    ).json()) as { workflowId: string; temporalUiUrl: string };
    // The API links to the UI that runs here, not to Temporal's default port.
    expect(started.temporalUiUrl).toBe(`http://localhost:${ports.ui}/namespaces/default/workflows/${started.workflowId}`);
    // The refund is the run's second call (the demo model reads the order first).
    const approvalId = encodeApprovalId({ workflowId: started.workflowId, callId: 'call-2' });
    await waitFor(async () => (await api(first.token, 'GET', `/api/approvals/${approvalId}`)).status === 200, 60_000, 'the refund to wait');

    await ctrlC(first.child);
    expect(first.output()).toContain('Stopping: draining the worker…');
    expect(first.output()).toContain('Stopped.');
    for (const port of Object.values(ports)) expect(await portOpen(port)).toBe(false);

    const second = await npmStart();
    expect(second.token).toBe(first.token);
    const waiting = (await (await api(second.token, 'GET', '/api/approvals?agent=demo')).json()) as { id: string }[];
    expect(waiting.map((a) => a.id)).toContain(approvalId);
    expect((await api(second.token, 'POST', `/api/approvals/${approvalId}/approve`, {})).status).toBe(200);
    await waitFor(
      async () =>
        ((await (await api(second.token, 'GET', `/api/runs/${started.workflowId}`)).json()) as { status: string }).status === 'Completed',
      60_000,
      'the run to finish',
    );
    await ctrlC(second.child);
    expect(second.output().match(/Stopped\./g)).toHaveLength(1);
    for (const port of Object.values(ports)) expect(await portOpen(port)).toBe(false);
  });

  it('drains and stops everything when a supervisor sends SIGTERM to npm alone', { timeout: 300_000 }, async () => {
    ports = await freePorts();
    const first = await npmStart('supervised');
    const closed = new Promise<void>((resolve) => first.child.once('close', () => resolve()));
    // systemd, pm2 or a CI job's timeout signal the process they started: npm. Its shell passes nothing on.
    process.kill(first.child.pid!, 'SIGTERM');
    // A hang says what is left of npm's process group and how each process stands, then whether node drains on a
    // SIGTERM of its own (was the signal missing, or the drain stuck?).
    const within = (ms: number) => Promise.race([closed.then(() => true), sleep(ms).then(() => false)]);
    if (!(await within(90_000))) {
      const before = processGroup(first.child.pid!);
      const printed = first.output().length;
      for (const { pid } of groupProcesses(first.child.pid!)) process.kill(pid, 'SIGTERM');
      const drained = await within(30_000);
      throw new Error(
        `still running 90 s after SIGTERM to npm:\n${before}\nthen SIGTERM to each: ${drained ? 'closed' : 'still running'}; printed since:\n${first.output().slice(printed)}`,
      );
    }
    running.delete(first.child);
    expect(first.output()).toContain('Stopping: draining the worker…');
    expect(first.output()).toContain('Stopped.');
    for (const port of Object.values(ports)) expect(await portOpen(port)).toBe(false);
    expect(existsSync(path.join(dir, 'supervised', 'state', 'dev-server.json'))).toBe(false);
  });

  it('says so and stops, failing, when its dev server dies', { timeout: 300_000 }, async () => {
    ports = await freePorts();
    const record = path.join(dir, 'server-died', 'state', 'dev-server.json');
    const first = await npmStart('server-died');
    const { server } = JSON.parse(readFileSync(record, 'utf8')) as { server: { pid: number } };
    const closed = new Promise<number | null>((resolve) => first.child.once('close', (code) => resolve(code)));
    // Out of memory, a crash, a stray kill: the worker and the API would otherwise retry it forever.
    process.kill(server.pid, 'SIGKILL');
    const code = await Promise.race([closed, sleep(60_000).then(() => 'still running 60 s after its dev server died')]);
    // Still running, it stays in `running` for afterAll to kill.
    expect(code).toBe(1);
    running.delete(first.child);
    expect(first.output()).toContain('The Temporal dev server exited (SIGKILL); its log is');
    expect(first.output()).toContain('Stopped.');
    for (const port of Object.values(ports)) expect(await portOpen(port)).toBe(false);
    expect(existsSync(record)).toBe(false);
  });

  it('leaves no dev server behind when SIGKILLed, and stops one whose supervisor was killed too', { timeout: 300_000 }, async () => {
    ports = await freePorts();
    const record = path.join(dir, 'killed', 'state', 'dev-server.json');
    const recorded = () => JSON.parse(readFileSync(record, 'utf8')) as { server: { pid: number }; owner: { pid: number } };
    const first = await npmStart('killed');
    const { server, owner } = recorded();
    expect(owner.pid).not.toBe(first.child.pid);
    // The server's parent is its supervisor, started by the node process that runs src/start.ts.
    const supervisor = Number(procStatFields(server.pid)![1]);
    expect(processIdentity(supervisor)!.command).toContain('dev-server-supervisor.mjs');
    expect(Number(procStatFields(supervisor)![1])).toBe(owner.pid);

    // Both die at once (a SIGKILL to the whole group would do that, npm included): nothing is left to stop the server.
    let closed = new Promise<void>((resolve) => first.child.once('close', () => resolve()));
    process.kill(supervisor, 'SIGKILL');
    process.kill(owner.pid, 'SIGKILL');
    await closed;
    running.delete(first.child);
    expect(processIdentity(server.pid)).toBeDefined();
    expect(await portOpen(ports.grpc)).toBe(true);

    const second = await npmStart('killed');
    expect(second.output()).toContain(`Stopped the dev server (pid ${server.pid}) an earlier npm start left running when it was killed.`);
    expect(processIdentity(server.pid)).toBeUndefined();
    expect((await api(second.token, 'GET', '/api/me')).status).toBe(200);
    expect(second.token).toBe(first.token);

    // Only the node process that runs src/start.ts dies (npm and its shell follow it): its supervisor stops the server.
    const again = recorded();
    closed = new Promise<void>((resolve) => second.child.once('close', () => resolve()));
    process.kill(again.owner.pid, 'SIGKILL');
    await closed;
    running.delete(second.child);
    // SIGTERM, then the server closes its database and exits: a second or two, more on a loaded machine.
    await waitFor(() => processIdentity(again.server.pid) === undefined, 30_000, `dev server ${again.server.pid} to stop`);
    for (const port of Object.values(ports)) expect(await portOpen(port)).toBe(false);
  });
});
