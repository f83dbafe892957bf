/**
 * Under `npm start` (or `npm run worker`, `npm run api`) this process is the child of the shell npm runs the script
 * in. A supervisor that stops the app by signalling npm alone (systemd, pm2, a CI job's timeout) ends npm and that
 * shell, but the shell passes no signal on: this process would keep running, holding its ports and its dev server.
 * So when npm is gone, stop as for SIGTERM: each entry point's own handler drains.
 * Only under npm: a process started another way (a container's `node`, `nohup node …`) keeps its own lifetime.
 */
import { readFileSync } from 'node:fs';
import { isAlive, procStatFields, processIdentity } from './leftover-dev-server.js';

const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'ksh']);

// Who started this process, read when this module loads, as the process starts. Read when an entry point is ready,
// it could already be init: a supervisor may stop npm the moment the banner is out, and a loaded machine may run
// npm's end before the rest of our synchronous code (seen: one npm start in three under load never stopped).
const parent = process.ppid;
// A shell that outlives npm (one that ignores SIGTERM, say) would hide npm's end: then npm, the shell's parent, is
// watched too, by its identity (a pid reused meanwhile is not npm). Known where /proc says it (Linux); elsewhere the
// parent alone.
const npm = isShell(parent) ? processIdentity(Number(procStatFields(parent)?.[1])) : undefined;

export function stopWhenNpmStops(options: { intervalMs?: number } = {}): void {
  if (!process.env.npm_lifecycle_event) return;
  // process.ppid asks the OS each time: an orphan is adopted by init or the nearest subreaper.
  const timer = setInterval(() => {
    if (process.ppid === parent && (npm === undefined || isAlive(npm))) return;
    clearInterval(timer);
    console.error('npm, which started this process, is gone: stopping as on SIGTERM.');
    process.kill(process.pid, 'SIGTERM');
  }, options.intervalMs ?? 1000);
  timer.unref();
}

function isShell(pid: number): boolean {
  try {
    return SHELLS.has(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
  } catch {
    return false;
  }
}
