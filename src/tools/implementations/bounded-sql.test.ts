/**
 * `execute_sql` off the worker's event loop, through the real tool: a statement that runs past its budget is
 * stopped and refused while timers keep firing, a write stopped so keeps nothing, a cancelled call stops its
 * statement, and ordinary statements answer as they did when they ran in the worker's own thread.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRefusedError } from '../../errors.js';
import type { ToolImplementation } from '../implement-tool.js';
import { toolContext } from '../../../test/helpers/tool-context.js';
import { runGuardedStatement } from './guarded-sql.js';
import { openShopDb, type ShopDb } from './shop-db.js';
import { shopTools } from './shop-tools.js';

/** The tester's statement: about 80 s of SQLite on a busy 2-core machine; without its LIMIT it would never end. */
const SLOW_COUNT = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 200000000) SELECT count(*) FROM c';
/** A write that inserts rows as it goes, for minutes. */
const SLOW_INSERT =
  'INSERT INTO refunds (order_id, amount, idempotency_key) ' +
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 200000000) SELECT '1234', 1, 'bulk-' || x FROM c";
const BUDGET_MS = 1000;
/** How long past the budget the refusal may come: the kill and the process's exit, on a loaded machine. */
const SLACK_MS = 4000;

let root: string;
let db: ShopDb;
let executeSql: ToolImplementation;
let calls = 0;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hitl-bounded-sql-'));
  db = openShopDb(path.join(root, 'shop.db'));
  executeSql = shopTools(db, { statementBudgetMs: BUDGET_MS }).find((t) => t.spec.name === 'execute_sql') as unknown as ToolImplementation;
});
afterAll(() => {
  db?.close();
  rmSync(root, { recursive: true, force: true });
});

const context = (signal?: AbortSignal) => toolContext(`wf:call-${++calls}`, signal);

const run = (query: string, ctx = context()) => Promise.resolve().then(() => executeSql.run({ query }, ctx));

/** Runs `query`, with a timer ticking every 20 ms meanwhile: what it threw, how long it took, the longest gap between ticks. */
async function timed(query: string, ctx = context()) {
  const ticks: number[] = [];
  const started = performance.now();
  const timer = setInterval(() => ticks.push(performance.now()), 20);
  const error = await run(query, ctx).then(
    (result) => new Error(`not stopped: ${JSON.stringify(result)}`),
    (err: unknown) => err,
  );
  clearInterval(timer);
  const ended = performance.now();
  const marks = [started, ...ticks, ended];
  const longestGap = Math.max(...marks.slice(1).map((mark, i) => mark - marks[i]!));
  return { error, elapsed: ended - started, ticks: ticks.length, longestGap };
}

const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('execute_sql under a time budget', () => {
  it('stops a statement that runs past its budget and refuses it, while the event loop keeps turning', async () => {
    expect(await run('SELECT 1 AS one')).toEqual([{ one: 1 }]); // a SQL process is up: what follows times only the statement
    const { error, elapsed, ticks, longestGap } = await timed(SLOW_COUNT);
    expect(error).toBeInstanceOf(ToolRefusedError);
    expect((error as Error).message).toBe(
      'The statement ran past 1 s and was stopped; any change it made was undone. Make it do less (a narrower WHERE, a LIMIT) and try again.',
    );
    expect(elapsed).toBeGreaterThanOrEqual(BUDGET_MS - 50);
    expect(elapsed).toBeLessThan(BUDGET_MS + SLACK_MS);
    // Timers (the activity's heartbeats among them) fired all along: SQLite ran in another process.
    expect(ticks).toBeGreaterThan(10);
    expect(longestGap).toBeLessThan(BUDGET_MS);
  });

  it('keeps nothing of a write it stopped, and leaves the database whole and free to write', async () => {
    const refunds = count('refunds');
    const wal = () => statSync(path.join(root, 'shop.db-wal')).size;
    const walBefore = wal();
    const ctx = context();
    const { error, elapsed } = await timed(SLOW_INSERT, ctx);
    expect(error).toBeInstanceOf(ToolRefusedError);
    expect((error as Error).message).toMatch(/^The statement ran past 1 s and was stopped; any change it made was undone\./);
    expect(elapsed).toBeLessThan(BUDGET_MS + SLACK_MS);
    // It had written: its uncommitted pages spilled into the WAL (megabytes of them). None of it counts.
    expect(wal() - walBefore).toBeGreaterThan(1_000_000);
    expect(count('refunds')).toBe(refunds);
    expect(db.prepare('SELECT count(*) AS n FROM tool_effects WHERE idempotency_key = ?').get(ctx.idempotencyKey)).toEqual({ n: 0 });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    // Its process and its write lock are gone: the next write goes through at once.
    expect(await run("UPDATE orders SET status = 'open' WHERE id = '1235'")).toEqual({ changes: 1 });
  });

  it("a write on the worker's own connection waits only a moment for a statement that holds the lock", async () => {
    const slow = timed(SLOW_INSERT);
    let busy: { code?: string; ms: number } | undefined;
    for (let i = 0; i < 40 && !busy; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      try {
        db.prepare("UPDATE orders SET status = status WHERE id = '1235'").run();
      } catch (err) {
        busy = { code: (err as { code?: string }).code, ms: performance.now() - started };
      }
    }
    await slow;
    // Busy, and retried by the tool's policy, after a moment on the event loop (it waited 5 s, every run frozen).
    expect(busy?.code).toBe('SQLITE_BUSY');
    expect(busy!.ms).toBeLessThan(1_500);
  });

  it('stops the statement when its call is cancelled', async () => {
    const longer = shopTools(db, { statementBudgetMs: 120_000 }).find(
      (t) => t.spec.name === 'execute_sql',
    ) as unknown as ToolImplementation;
    const cancel = new AbortController();
    const reason = new Error('the run was cancelled');
    setTimeout(() => cancel.abort(reason), 500);
    const started = performance.now();
    const error = await Promise.resolve()
      .then(() => longer.run({ query: SLOW_INSERT }, context(cancel.signal)))
      .catch((err: unknown) => err);
    expect(error).toBe(reason);
    expect(performance.now() - started).toBeLessThan(500 + SLACK_MS);
    expect(db.prepare("SELECT count(*) AS n FROM refunds WHERE idempotency_key LIKE 'bulk-%'").get()).toEqual({ n: 0 });
  });

  it('answers ordinary statements as they were answered in the worker thread, several at once', async () => {
    const file = path.join(root, 'shop.db');
    const reads = [
      'SELECT * FROM orders ORDER BY id',
      "SELECT x'00ff' AS b, NULL AS n, 1.5 AS r, 'é' || char(0) || 'x' AS s, 9007199254740991 AS big",
      'PRAGMA table_info(refunds)',
      'WITH big AS (SELECT id FROM orders WHERE amount > 10000) SELECT count(*) AS n FROM big',
    ];
    const answers = await Promise.all([...reads, ...reads].map((query) => run(query)));
    expect(answers.map((a) => JSON.stringify(a))).toEqual(
      [...reads, ...reads].map((query) => JSON.stringify(runGuardedStatement(file, query, 'unused'))),
    );
    // A refusal reads as it did, and a ledgered write answers as it did.
    const error = await run('SELEC 1').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ToolRefusedError);
    expect((error as Error).message).toBe('SQL error: near "SELEC": syntax error');
    expect(await run("UPDATE orders SET refunded = refunded WHERE id IN ('1237', '1238')")).toEqual({ changes: 2 });
  });
});
