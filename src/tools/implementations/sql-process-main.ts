/**
 * A SQL process (sql-process.ts starts it): runs one job at a time, as the parent sends them, and answers each.
 * It ends when the parent disconnects, and, should the parent die while a statement runs (the main thread is busy
 * in SQLite then, and cannot hear of it), a watchdog thread kills it, so a runaway statement never outlives its worker.
 */
import { Worker } from 'node:worker_threads';
import { ToolRefusedError } from '../../errors.js';
import { runGuardedStatement } from './guarded-sql.js';
import type { SqlJob, SqlReply } from './sql-process.js';

function answer(job: SqlJob): SqlReply {
  try {
    // As JSON, as the tool's result would have been: a BLOB reads as a Buffer's JSON, as it did in the worker.
    return { json: JSON.stringify(runGuardedStatement(job.file, job.query, job.idempotencyKey)) ?? 'null' };
  } catch (err) {
    if (err instanceof ToolRefusedError) return { refused: err.message };
    const error = err instanceof Error ? err : new Error(String(err));
    const code = (error as { code?: unknown }).code;
    return { failed: { name: error.name, message: error.message, ...(typeof code === 'string' && { code }) } };
  }
}

const WATCHDOG = `
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL'); }, 1000);
`;
new Worker(WATCHDOG, { eval: true }).unref();

process.on('message', (job: SqlJob) => process.send!(answer(job)));
process.on('disconnect', () => process.exit(0));
process.send!('ready');
