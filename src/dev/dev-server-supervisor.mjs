/**
 * Runs the Temporal dev server (the command in argv) as its child, so that the server never outlives the process
 * that started it (src/dev/dev-server.ts). Plain JavaScript, run by `node` alone: it starts in a few tens of ms.
 *
 * Why: a process killed with SIGKILL, or one that crashes natively, runs no exit handler; its dev server would keep
 * running, adopted by init, holding its ports and its SQLite file. Linux's PR_SET_PDEATHSIG is out of Node's reach,
 * but a pipe is not: the starting process holds the other end of this one's IPC channel, and when it dies, however
 * it dies, the OS closes that end. The channel then disconnects here, and this process stops the server: SIGTERM
 * (the server closes its database), SIGKILL after a grace period.
 *
 * Otherwise it stands aside: it tells its parent the server's pid (the process that holds the ports, for whoever
 * records, measures or kills it); SIGTERM, SIGINT and SIGHUP sent to it are passed on to the server; and it ends as
 * the server ends, with the same exit code or by the same signal, so its parent sees what became of the server.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const GRACE_MS = 10_000;
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'];

const [command, ...args] = process.argv.slice(2);
if (!command || !process.send) {
  process.stderr.write('usage: node dev-server-supervisor.mjs <command> [args…], from a parent with an IPC channel\n');
  process.exit(2);
}

// Its stderr is this process's: the log file, or the parent's pipe.
const server = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });

server.once('error', (err) => {
  process.stderr.write(`could not start ${command}: ${err.message}\n`);
  process.exit(127);
});

// A parent already gone gets no message (the callback takes the error); the disconnect below stops the server.
server.once('spawn', () => process.send?.({ serverPid: server.pid }, () => {}));

for (const signal of SIGNALS) process.on(signal, () => server.kill(signal));

process.once('disconnect', () => {
  server.kill('SIGTERM');
  setTimeout(() => server.kill('SIGKILL'), GRACE_MS);
});

server.once('exit', (code, signal) => {
  if (signal === null) process.exit(code ?? 1);
  for (const handled of SIGNALS) process.removeAllListeners(handled);
  process.kill(process.pid, signal);
  // A signal this process ignores (one its own parent set to be ignored) would not end it.
  setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
});
