/**
 * The demo's `execute_sql` against a real SQLite file, through the real tool implementation: every way out of the
 * shop database we could think of is refused, and reads and ledgered writes still work.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRefusedError } from '../../errors.js';
import type { ToolImplementation } from '../implement-tool.js';
import { toolContext } from '../../../test/helpers/tool-context.js';
import { MAX_RESULT_BYTES, openGuardedConnection } from './guarded-sql.js';
import { openShopDb, type ShopDb } from './shop-db.js';
import { shopTools } from './shop-tools.js';

let root: string;
let dataDir: string;
let outside: string;
let db: ShopDb;
let executeSql: ToolImplementation;
let calls = 0;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hitl-sql-guard-'));
  dataDir = path.join(root, 'data');
  outside = path.join(root, 'outside');
  mkdirSync(outside, { recursive: true });
  db = openShopDb(path.join(dataDir, 'shop.db'));
  // A real SQLite file outside the data directory: what an ATTACH would want to read or write.
  const other = new Database(path.join(outside, 'other.db'));
  other.exec("CREATE TABLE secret (x TEXT); INSERT INTO secret VALUES ('s3cret')");
  other.close();
  executeSql = shopTools(db).find((tool) => tool.spec.name === 'execute_sql') as unknown as ToolImplementation;
});
afterAll(() => {
  db?.close();
  rmSync(root, { recursive: true, force: true });
});

const context = (idempotencyKey = `wf:call-${++calls}`) => toolContext(idempotencyKey);

const run = (query: string, ctx = context()) => executeSql.run({ query }, ctx);

async function refusal(query: string): Promise<string> {
  const outcome = await Promise.resolve()
    .then(() => run(query))
    .then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  if (!('error' in outcome)) throw new Error(`not refused: ${query}\n  result: ${JSON.stringify(outcome.result)}`);
  if (!(outcome.error instanceof ToolRefusedError)) throw new Error(`refused with an untyped error: ${String(outcome.error)}`);
  return outcome.error.message;
}

const orders = () => db.prepare('SELECT id, amount, refunded, status FROM orders ORDER BY id').all();

describe('execute_sql refuses every way out of the shop database', () => {
  // [what it tries, the statement, a fragment of the refusal the model reads]
  const attempts = (): [string, string, RegExp][] => {
    const out = (file: string) => path.join(outside, file);
    return [
      ['a comment before VACUUM INTO', `/* x */ VACUUM INTO '${out('copy.db')}'`, /cannot VACUUM from within a transaction/],
      ['a line comment before ATTACH', `-- x\nATTACH '${out('other.db')}' AS o`, /only changes the connection/],
      ['a comment before PRAGMA', `/* x */ PRAGMA writable_schema = ON`, /only changes the connection/],
      ['a line comment before VACUUM', `-- x\n VACUUM`, /cannot VACUUM from within a transaction/],
      ['mixed-case ATTACH', `aTtAcH dAtAbAsE '${out('new.db')}' aS o`, /only changes the connection/],
      ['mixed-case VACUUM INTO', `vAcUuM iNtO '${out('mixed.db')}'`, /cannot VACUUM/],
      ['VACUUM INTO a path inside the data directory', `VACUUM INTO '${path.join(dataDir, 'copy.db')}'`, /cannot VACUUM/],
      ['VACUUM INTO a relative path', `VACUUM INTO '../outside/rel.db'`, /cannot VACUUM/],
      ['VACUUM of an attach slot', `VACUUM attach_slot_0 INTO '${out('slot.db')}'`, /cannot VACUUM/],
      ['ATTACH of an in-memory database', `ATTACH ':memory:' AS m`, /only changes the connection/],
      ['ATTACH through WITH', `WITH x AS (SELECT 1) ATTACH '${out('with.db')}' AS w`, /syntax error/],
      ['ATTACH inside a trigger body', `CREATE TRIGGER t AFTER INSERT ON refunds BEGIN ATTACH '${out('t.db')}' AS t; END`, /syntax error/],
      ['VACUUM inside a trigger body', `CREATE TRIGGER t AFTER INSERT ON refunds BEGIN VACUUM; END`, /syntax error/],
      ['a read, then ATTACH', `SELECT 1; ATTACH '${out('other.db')}' AS o`, /more than one statement/],
      ['a write, then VACUUM INTO', `UPDATE orders SET amount = 1 WHERE id = '1237'; VACUUM INTO '${out('w.db')}'`, /more than one/],
      ['a setting, then a write', `PRAGMA foreign_keys = OFF; DELETE FROM orders`, /more than one statement/],
      ['sqlite_attach() called as a function', `SELECT sqlite_attach('${out('f.db')}', 'f', NULL)`, /no such function/],
      ['load_extension()', `SELECT load_extension('${out('evil.so')}')`, /not authorized/],
      ['load_extension() in a write', `UPDATE orders SET status = load_extension('${out('evil.so')}')`, /not authorized/],
      ['fts3_tokenizer() with a pointer', `SELECT fts3_tokenizer('simple', x'4141414141414141')`, /fts3tokenize disabled/],
      ['PRAGMA writable_schema', 'PRAGMA writable_schema = 1', /only changes the connection/],
      ['writing the schema table', `UPDATE sqlite_schema SET sql = 'x' WHERE name = 'orders'`, /may not be modified/],
      ['PRAGMA temp_store_directory outside', `PRAGMA temp_store_directory = '${outside}'`, /only changes the connection/],
      ['PRAGMA query_only off', 'PRAGMA query_only = 0', /only changes the connection/],
      ['PRAGMA foreign_keys off', 'PRAGMA foreign_keys = OFF', /only changes the connection/],
      ['PRAGMA trusted_schema on', 'PRAGMA trusted_schema = ON', /only changes the connection/],
      ['PRAGMA journal_mode off WAL', 'PRAGMA journal_mode = DELETE', /cannot change out of wal mode/],
      ['DETACH an attach slot', 'DETACH attach_slot_0', /only changes the connection/],
      ['BEGIN', 'BEGIN', /only changes the connection/],
      ['COMMIT', 'COMMIT', /only changes the connection/],
      ['SAVEPOINT', 'SAVEPOINT s', /only changes the connection/],
      ['only a comment', '-- ATTACH', /no statements/],
    ];
  };

  it('refuses each bypass attempt with a ToolRefusedError the model can read', async () => {
    const before = orders();
    const tempDirectory = db.pragma('temp_store_directory', { simple: true });
    const failures: string[] = [];
    for (const [what, query, expected] of attempts()) {
      await refusal(query).then(
        (message) => expected.test(message) || failures.push(`${what}: refused, but with "${message}"`),
        (e: Error) => failures.push(`${what}: ${e.message}`),
      );
    }
    expect(failures).toEqual([]);
    // Nothing left the data directory, nothing changed inside it, and no setting outlived its statement.
    expect(readdirSync(outside)).toEqual(['other.db']);
    expect(readdirSync(dataDir).sort()).toEqual(['shop.db', 'shop.db-shm', 'shop.db-wal']);
    expect(orders()).toEqual(before);
    expect(db.pragma('database_list')).toEqual([{ seq: 0, name: 'main', file: path.join(dataDir, 'shop.db') }]);
    expect(db.pragma('temp_store_directory', { simple: true })).toBe(tempDirectory);
    expect(db.prepare('SELECT count(*) AS n FROM tool_effects').get()).toEqual({ n: 0 });
  });

  it('a trigger it creates cannot later do what a statement may not do now', async () => {
    await run(`CREATE TRIGGER sneaky AFTER UPDATE ON orders BEGIN SELECT load_extension('${path.join(outside, 'evil.so')}'); END`);
    try {
      // trusted_schema = OFF: a function with side effects is refused inside a trigger, before it could be tried.
      expect(await refusal(`UPDATE orders SET status = 'open' WHERE id = '1235'`)).toMatch(/unsafe use of load_extension/);
    } finally {
      db.exec('DROP TRIGGER sneaky');
    }
  });

  it('the connection itself can attach nothing and write nothing outside a transaction', () => {
    const file = path.join(dataDir, 'shop.db');
    const writer = openGuardedConnection(file, 'write');
    const reader = openGuardedConnection(file, 'read');
    try {
      // Used directly, without the tool's checks: these are SQLite's own refusals.
      expect(() => writer.exec(`ATTACH '${path.join(outside, 'other.db')}' AS o`)).toThrow(/too many attached databases/);
      expect(() => reader.exec(`ATTACH '${path.join(outside, 'other.db')}' AS o`)).toThrow(/too many attached databases/);
      expect(() => reader.exec(`UPDATE orders SET amount = 1`)).toThrow(/readonly database/);
      expect(() => writer.transaction(() => writer.exec(`VACUUM INTO '${path.join(outside, 'x.db')}'`))()).toThrow(/cannot VACUUM/);
      expect(writer.pragma('temp_store', { simple: true })).toBe(2);
      expect(writer.pragma('trusted_schema', { simple: true })).toBe(0);
    } finally {
      writer.close();
      reader.close();
    }
    expect(readdirSync(outside)).toEqual(['other.db']);
  });
});

describe('execute_sql still reads and writes the shop tables', () => {
  it('runs reads: SELECT, WITH … SELECT and a reading PRAGMA, outside the ledger', async () => {
    const ledgered = db.prepare('SELECT count(*) AS n FROM tool_effects').get();
    expect(await run("SELECT status FROM orders WHERE id = '1237'")).toEqual([{ status: 'open' }]);
    expect(await run('WITH big AS (SELECT id FROM orders WHERE amount > 10000) SELECT count(*) AS n FROM big')).toEqual([{ n: 2 }]);
    expect(await run('PRAGMA table_info(refunds)')).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'order_id', type: 'TEXT' })]),
    );
    expect(db.prepare('SELECT count(*) AS n FROM tool_effects').get()).toEqual(ledgered);
  });

  it('reads a result up to its bound, and says so in place of the rest, which it does not read', async () => {
    const wide = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 200000) SELECT x, 'padding-padding' AS p FROM c";
    const rows = (await run(wide)) as unknown[];
    expect(rows.length).toBeLessThan(200_000);
    expect(rows.at(-1)).toBe(`…more rows not read: the result passed ${MAX_RESULT_BYTES} bytes; ask for fewer (a narrower WHERE, a LIMIT)`);
    expect(rows.at(-2)).toEqual({ x: rows.length - 1, p: 'padding-padding' });
    expect(JSON.stringify(rows).length).toBeLessThan(MAX_RESULT_BYTES + 200);
  });

  it('runs a write once per idempotency key, through the ledger', async () => {
    const ctx = context();
    const update = "UPDATE orders SET refunded = refunded + 5 WHERE id = '1238'";
    expect(await run(update, ctx)).toEqual({ changes: 1 });
    // A retry of the same call (same key) returns the recorded result and changes nothing.
    expect(await run(update, ctx)).toEqual({ changes: 1 });
    expect(db.prepare("SELECT refunded FROM orders WHERE id = '1238'").get()).toEqual({ refunded: 5 });
    expect(db.prepare('SELECT tool, result FROM tool_effects WHERE idempotency_key = ?').get(ctx.idempotencyKey)).toEqual({
      tool: 'execute_sql',
      result: '{"changes":1}',
    });
  });

  it('returns the rows of a write that returns rows, and ledgers it', async () => {
    const ctx = context();
    const insert = "INSERT INTO refunds (order_id, amount, idempotency_key) VALUES ('1235', 20, 'manual-1') RETURNING order_id, amount";
    expect(await run(insert, ctx)).toEqual({ rows: [{ order_id: '1235', amount: 20 }] });
    expect(await run(insert, ctx)).toEqual({ rows: [{ order_id: '1235', amount: 20 }] });
    expect(db.prepare("SELECT count(*) AS n FROM refunds WHERE idempotency_key = 'manual-1'").get()).toEqual({ n: 1 });
  });

  it('refuses a write SQLite rejects, so the model hears at once instead of after the retries', async () => {
    expect(await refusal("INSERT INTO orders (id, customer, email, amount, status) VALUES ('1234', 'x', 'x', 1, 'open')")).toMatch(
      /UNIQUE constraint failed: orders.id/,
    );
    expect(await refusal("INSERT INTO refunds (order_id, amount, idempotency_key) VALUES ('nope', 1, 'k')")).toMatch(
      /FOREIGN KEY constraint failed/,
    );
  });
});
