/**
 * The demo's shop: a real SQLite file with orders and refunds, and a ledger of side effects keyed by idempotency
 * key so a retried tool call changes nothing twice.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type ShopDb = Database.Database;

const SEED_ORDERS: [id: string, customer: string, email: string, amount: number, status: string][] = [
  ['1234', 'Ada Lovelace', 'ada@example.com', 75000, 'open'],
  ['1235', 'Alan Turing', 'alan@example.com', 120, 'open'],
  ['1236', 'Grace Hopper', 'grace@example.com', 8000, 'shipped'],
  ['1237', 'Edsger Dijkstra', 'edsger@example.com', 15000, 'open'],
  ['1238', 'Barbara Liskov', 'barbara@example.com', 300, 'open'],
];

/** How long a write on the worker's own connection waits for the database's lock. */
const MAIN_THREAD_BUSY_MS = 250;

export function openShopDb(file: string): ShopDb {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // While the worker starts, it waits for another setting the shop up.
  db.pragma('busy_timeout = 5000');
  useWal(db);
  db.exec(`
    CREATE TABLE IF NOT EXISTS orders (
      id TEXT PRIMARY KEY, customer TEXT NOT NULL, email TEXT NOT NULL,
      amount REAL NOT NULL, refunded REAL NOT NULL DEFAULT 0, status TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS refunds (
      id INTEGER PRIMARY KEY AUTOINCREMENT, order_id TEXT NOT NULL REFERENCES orders(id),
      amount REAL NOT NULL, idempotency_key TEXT NOT NULL UNIQUE);
    CREATE TABLE IF NOT EXISTS tool_effects (
      idempotency_key TEXT PRIMARY KEY, tool TEXT NOT NULL, result TEXT NOT NULL);
  `);
  const seed = db.prepare('INSERT OR IGNORE INTO orders (id, customer, email, amount, status) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => SEED_ORDERS.forEach((row) => seed.run(...row)))();
  // Then the connection is the worker's own, on its event loop, where SQLite waits for a lock synchronously: a tool's
  // write waits a moment for one an execute_sql statement holds (up to its budget, in a SQL process), then fails busy
  // and is retried by its tool's policy; five seconds froze every run and the API as long.
  db.pragma(`busy_timeout = ${MAIN_THREAD_BUSY_MS}`);
  return db;
}

/**
 * WAL is kept in the file, so the first process to open it sets it for all. A second worker starting while the first
 * creates and seeds the shop finds a write in progress, and SQLite refuses its switch with SQLITE_BUSY at once,
 * without waiting out the busy timeout (a worker failed to start so in CI). It goes on without: its connection reads
 * WAL from the file once the first has set it, and its own statements wait for the first's write as usual.
 */
function useWal(db: ShopDb): void {
  try {
    db.pragma('journal_mode = WAL');
  } catch (err) {
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
  }
}

/**
 * Runs `effect` and records its result under `key` in one transaction; a later call with the same key returns
 * the recorded result and changes nothing.
 */
export function onceByKey<T>(db: ShopDb, key: string, tool: string, effect: () => T): T {
  return db
    .transaction(() => {
      const done = db.prepare('SELECT result FROM tool_effects WHERE idempotency_key = ?').get(key) as { result: string } | undefined;
      if (done) return JSON.parse(done.result) as T;
      const result = effect();
      db.prepare('INSERT INTO tool_effects (idempotency_key, tool, result) VALUES (?, ?, ?)').run(
        key,
        tool,
        JSON.stringify(result ?? null),
      );
      return result;
    })
    .immediate();
}
