/**
 * Runs SQLite work in child processes ("SQL processes"), so a slow statement never blocks the worker's event loop
 * (its workflow tasks, heartbeats and, under `npm start`, the API), and can be stopped.
 *
 * Why processes and not worker threads: better-sqlite3 runs a statement inside one native call, and
 * `Worker.terminate()` stops JavaScript only, so a terminated thread runs its statement to the end (measured: a
 * count over a 30-million-row recursive CTE, terminated after 0.3 s, exited after 12.5 s; one without a LIMIT
 * never would), holding a core and, for a write, the database's write lock. better-sqlite3 exposes neither
 * sqlite3_interrupt nor a progress handler. A SIGKILLed process stops at once, and SQLite rolls back whatever it
 * had not committed (the next connection ignores a transaction that never wrote its commit record).
 *
 * Why a pool: starting one costs far more than a statement (a fork with tsx, measured at 0.15 to 0.8 s on a busy
 * 2-core machine), so a process that answered goes back to the pool for the next statement; one that was stopped is
 * killed, and the next statement starts a new one. Idle processes keep nothing alive and end after IDLE_MS.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A statement the model wrote, to run with the guards of guarded-sql.ts against the shop database in `file`. */
export interface SqlJob {
  file: string;
  query: string;
  idempotencyKey: string;
}

/** The SQL process's answer: the result as JSON, a refusal the model should read, or any other error. */
export type SqlReply = { json: string } | { refused: string } | { failed: { name: string; message: string; code?: string } };

/** An answer, or why there is none: the budget ran out, the caller gave up, or the process died. */
export type SqlOutcome = { reply: SqlReply } | { stopped: 'budget' | 'cancelled' | 'crashed'; detail?: string };

/** At most this many SQL processes at once (they run one job each); further jobs wait for one to be free. */
export const MAX_SQL_PROCESSES = 4;
/** An idle SQL process ends after this long without work. */
const IDLE_MS = 30_000;

const ENTRY = fileURLToPath(new URL('./sql-process-main.ts', import.meta.url));
// The project runs its TypeScript through tsx (npm start, npm run worker); the SQL process does too.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const idle: ChildProcess[] = [];
const idleTimers = new Map<ChildProcess, NodeJS.Timeout>();
const waiting = new Set<() => void>();
let live = 0;

/**
 * Runs `job` in a SQL process and answers when it does, or stops the process (SIGKILL) once `budgetMs` has passed
 * since the job was handed over, or when `signal` aborts; it resolves only after a stopped process has exited, so
 * nothing of the job runs any more. Waiting for a free process does not count against the budget.
 */
export async function runInSqlProcess(job: SqlJob, budgetMs: number, signal?: AbortSignal): Promise<SqlOutcome> {
  const child = await acquire(signal);
  let settle!: (outcome: SqlOutcome) => void;
  const settled = new Promise<SqlOutcome>((resolve) => (settle = resolve));
  const onMessage = (reply: SqlReply) => settle({ reply });
  const onExit = (code: number | null, signalName: string | null) =>
    settle({ stopped: 'crashed', detail: `${signalName ?? `exit code ${code}`}` });
  const onAbort = () => settle({ stopped: 'cancelled' });
  child.on('message', onMessage);
  child.on('exit', onExit);
  signal?.addEventListener('abort', onAbort);
  if (signal?.aborted) onAbort();
  const timer = setTimeout(() => settle({ stopped: 'budget' }), budgetMs);
  child.send(job, (err) => err && settle({ stopped: 'crashed', detail: err.message }));
  const outcome = await settled;
  clearTimeout(timer);
  child.off('message', onMessage);
  child.off('exit', onExit);
  signal?.removeEventListener('abort', onAbort);
  if ('reply' in outcome) release(child);
  else await stop(child);
  return outcome;
}

async function acquire(signal?: AbortSignal): Promise<ChildProcess> {
  for (;;) {
    signal?.throwIfAborted();
    const child = idle.pop();
    if (child) {
      clearTimeout(idleTimers.get(child));
      idleTimers.delete(child);
      hold(child, true);
      return child;
    }
    if (live < MAX_SQL_PROCESSES) return start();
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      const abort = () => {
        waiting.delete(wake);
        reject(signal!.reason);
      };
      waiting.add(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}

/** A new SQL process, once it has loaded and said so. */
function start(): Promise<ChildProcess> {
  live++;
  const child = fork(ENTRY, [], { execArgv: ['--import', TSX], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let gone = false;
  const forget = () => {
    if (gone) return;
    gone = true;
    live--;
    const at = idle.indexOf(child);
    if (at >= 0) idle.splice(at, 1);
    clearTimeout(idleTimers.get(child));
    idleTimers.delete(child);
    wakeOne();
  };
  child.on('exit', forget);
  return new Promise((resolve, reject) => {
    const failed = (why: string) => reject(new Error(`The SQL process did not start (${why}).`));
    child.once('message', (message) => (message === 'ready' ? resolve(child) : failed(`it said ${JSON.stringify(message)}`)));
    child.once('exit', (code, signalName) => failed(signalName ?? `exit code ${code}`));
    // Kept for good: a ChildProcess with no 'error' listener throws its errors at the worker.
    child.on('error', (err) => {
      forget();
      failed(err.message);
    });
  });
}

function release(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || !child.connected) return;
  hold(child, false);
  idle.push(child);
  const timer = setTimeout(() => void stop(child), IDLE_MS);
  timer.unref();
  idleTimers.set(child, timer);
  wakeOne();
}

/** An idle process keeps the worker's process alive no longer than anything else does. */
function hold(child: ChildProcess, busy: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | undefined;
  if (busy) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

function wakeOne(): void {
  const [first] = waiting;
  if (!first) return;
  waiting.delete(first);
  first();
}
