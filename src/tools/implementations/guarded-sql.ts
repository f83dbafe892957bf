/**
 * Runs one SQL statement the model wrote against the shop database, with the limits resting on SQLite's own
 * guarantees rather than on reading the text:
 *
 * - One statement: better-sqlite3's `prepare` refuses a string holding a second one.
 * - Each statement gets a connection of its own, opened for it and closed after it. Many PRAGMAs take effect while
 *   the statement is compiled (before anything could inspect it), so nothing a statement sets survives it.
 * - SQLite classifies the compiled statement: `readonly` statements that return rows run on a read-only connection
 *   (SQLITE_OPEN_READONLY), which cannot write any file; those that return nothing (PRAGMA assignments, ATTACH,
 *   DETACH, transaction control) only change the connection and are refused; everything else is a write.
 * - Writes run inside the idempotency ledger's BEGIN IMMEDIATE transaction, and SQLite refuses VACUUM (and so
 *   VACUUM INTO another path) inside a transaction; reads run in a transaction too.
 * - The connection cannot ATTACH: better-sqlite3 exposes neither sqlite3_limit(SQLITE_LIMIT_ATTACHED) nor an
 *   authorizer, so the connection uses up its whole allowance of attached databases with empty in-memory ones,
 *   and SQLite answers any further ATTACH with "too many attached databases".
 * - `temp_store = MEMORY`: SQLite writes no temporary files anywhere, whatever `temp_store_directory` says, so the
 *   shop file's directory is the only place the statement can write.
 * - `trusted_schema = OFF`: triggers and views the model created cannot call functions with side effects. The
 *   `load_extension()` SQL function is off (better-sqlite3 enables only the C API), and defensive mode (its default)
 *   keeps `writable_schema` from being turned on.
 */
import Database from 'better-sqlite3';
import { ToolRefusedError } from '../../errors.js';
import { onceByKey, type ShopDb } from './shop-db.js';

/** SQLite's compile-time ceiling on attached databases (SQLITE_MAX_ATTACHED may be at most 125). */
const MAX_ATTACH_SLOTS = 125;

/**
 * A fresh connection to `file` (which must exist) with the guards above: read-only for `read`; either way it can
 * attach nothing and keeps temporary data in memory. The caller closes it.
 */
export function openGuardedConnection(file: string, mode: 'read' | 'write'): ShopDb {
  const db = new Database(file, { readonly: mode === 'read', fileMustExist: true });
  try {
    db.pragma('trusted_schema = OFF');
    db.pragma('temp_store = MEMORY');
    useUpAttachSlots(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function useUpAttachSlots(db: ShopDb): void {
  for (let slot = 0; slot < MAX_ATTACH_SLOTS; slot++) {
    try {
      db.exec(`ATTACH ':memory:' AS attach_slot_${slot}`);
    } catch (err) {
      if (slot > 0 && /too many attached databases/.test((err as Error).message)) return;
      throw err;
    }
  }
}

/**
 * Runs `query` against the shop database in `file`, here and now: rows for a read, `{ rows }` or `{ changes }` for a
 * write, which is recorded under `idempotencyKey` so a retry changes nothing twice. Throws ToolRefusedError for what
 * SQLite refuses or what the guards forbid; a busy database stays a plain error, so the tool's retry policy applies.
 * It blocks its thread until SQLite is done: the tool calls it in a SQL process, under a time budget (bounded-sql.ts).
 */
export function runGuardedStatement(file: string, query: string, idempotencyKey: string): unknown {
  const tempDirectory = globalTempDirectory();
  try {
    const rows = withConnection(file, 'read', (reader) => {
      const statement = prepare(reader, query);
      if (!statement.readonly) return undefined;
      if (!statement.reader) {
        throw new ToolRefusedError(
          'This statement only changes the connection (a PRAGMA assignment, ATTACH, DETACH or transaction control); ' +
            'each query runs alone on a connection of its own, so it is refused. Query or change the shop tables instead.',
        );
      }
      return reader.transaction(() => readRows(statement))();
    });
    if (rows) return rows;
    return withConnection(file, 'write', (writer) =>
      onceByKey(writer, idempotencyKey, 'execute_sql', () => {
        const statement = prepare(writer, query);
        return statement.reader ? { rows: readRows(statement) } : { changes: statement.run().changes };
      }),
    );
  } catch (err) {
    throw asRefusal(err);
  } finally {
    // `PRAGMA temp_store_directory` is process-wide and takes effect when compiled: put it back.
    restoreGlobalTempDirectory(tempDirectory);
  }
}

/** The most of a statement's rows read, as JSON text: sixteen times what the model is shown. */
export const MAX_RESULT_BYTES = 1024 * 1024;

/**
 * Rows a statement returns read as JSON takes, up to MAX_RESULT_BYTES; then a note in place of the rest, which is not
 * read. The model reads 64 KiB of a result at most (the tool result's cut), but a 150 MB SELECT was built whole, in
 * the SQL process and again in the worker (846 MB at its peak), before that cut.
 */
function readRows(statement: Database.Statement): unknown[] {
  const rows: unknown[] = [];
  let bytes = 0;
  for (const row of statement.iterate()) {
    bytes += (JSON.stringify(row) ?? 'null').length + 1;
    if (bytes > MAX_RESULT_BYTES) {
      rows.push(`…more rows not read: the result passed ${MAX_RESULT_BYTES} bytes; ask for fewer (a narrower WHERE, a LIMIT)`);
      break;
    }
    rows.push(row);
  }
  return rows;
}

function withConnection<T>(file: string, mode: 'read' | 'write', use: (db: ShopDb) => T): T {
  const db = openGuardedConnection(file, mode);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

function prepare(db: ShopDb, query: string): Database.Statement {
  try {
    return db.prepare(query);
  } catch (err) {
    throw new ToolRefusedError(`SQL error: ${(err as Error).message}`);
  }
}

/** SQLite's refusals are final for this statement; only a busy or locked database is worth another attempt. */
function asRefusal(err: unknown): unknown {
  if (!(err instanceof Database.SqliteError) || /^SQLITE_(BUSY|LOCKED)/.test(err.code)) return err;
  return new ToolRefusedError(`SQLite refused the statement: ${err.message}.`);
}

function globalTempDirectory(): string {
  const probe = new Database(':memory:');
  try {
    return String(probe.pragma('temp_store_directory', { simple: true }) ?? '');
  } finally {
    probe.close();
  }
}

function restoreGlobalTempDirectory(expected: string): void {
  const probe = new Database(':memory:');
  try {
    if (String(probe.pragma('temp_store_directory', { simple: true }) ?? '') !== expected) {
      probe.pragma(`temp_store_directory = '${expected.replaceAll("'", "''")}'`);
    }
  } finally {
    probe.close();
  }
}
