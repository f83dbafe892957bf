/**
 * `execute_sql`'s statements, off the worker's event loop and under a time budget: each runs in a SQL process
 * (sql-process.ts), which is killed when the budget runs out or the call is cancelled.
 */
import path from 'node:path';
import { ToolRefusedError } from '../../errors.js';
import type { ShopDb } from './shop-db.js';
import { runInSqlProcess, type SqlOutcome, type SqlReply } from './sql-process.js';

/**
 * How long one statement may run. The shop is a few small tables: a real query or change of them takes
 * milliseconds, and one still running after 10 s is a runaway (a recursive CTE, a cross join) that would run
 * for minutes or forever. 10 s is far inside a tool attempt's 2 minutes, so the model hears why instead of a
 * timeout, and a write that holds the database's write lock holds the other shop tools up for no longer.
 */
export const STATEMENT_BUDGET_MS = 10_000;

export interface SqlRunOptions {
  /** @default STATEMENT_BUDGET_MS */
  budgetMs?: number;
  /** Stops the statement (the activity's cancellation signal: the run was cancelled, or the attempt timed out). */
  signal?: AbortSignal;
}

/**
 * Runs a statement the model wrote with the guards of guarded-sql.ts, in a SQL process; the tool's result, or a
 * ToolRefusedError, as `runGuardedStatement` gives them. A statement stopped at the budget is refused: its
 * process is gone before it commits, so a write is rolled back; the ledger confirms it (a write that committed
 * just as the budget ran out recorded its result under `idempotencyKey`, which is then the answer).
 */
export async function runGuardedSql(db: ShopDb, query: string, idempotencyKey: string, options: SqlRunOptions = {}): Promise<unknown> {
  const { budgetMs = STATEMENT_BUDGET_MS, signal } = options;
  const outcome = await runInSqlProcess({ file: path.resolve(db.name), query, idempotencyKey }, budgetMs, signal);
  if ('reply' in outcome) return fromReply(outcome.reply);
  if (outcome.stopped === 'cancelled') throw cancellation(signal);
  const done = db.prepare('SELECT result FROM tool_effects WHERE idempotency_key = ?').get(idempotencyKey) as
    { result: string } | undefined;
  if (done) return JSON.parse(done.result);
  if (outcome.stopped === 'budget') {
    throw new ToolRefusedError(
      `The statement ran past ${seconds(budgetMs)} and was stopped; any change it made was undone. ` +
        'Make it do less (a narrower WHERE, a LIMIT) and try again.',
    );
  }
  throw crashed(outcome);
}

function fromReply(reply: SqlReply): unknown {
  if ('json' in reply) return JSON.parse(reply.json);
  if ('refused' in reply) throw new ToolRefusedError(reply.refused);
  // A busy or locked database, or a fault: a plain error with SQLite's code, so the tool's retry policy applies.
  const { name, message, code } = reply.failed;
  throw Object.assign(new Error(message), { name, ...(code !== undefined && { code }) });
}

function cancellation(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new Error('The statement was stopped: its call was cancelled.');
}

/** The process died mid-statement (out of memory, killed): retried by the tool's policy; nothing was committed. */
function crashed(outcome: Extract<SqlOutcome, { stopped: string }>): Error {
  return new Error(`The SQL process ended while it ran the statement (${outcome.detail}); any change it made was undone.`);
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}
