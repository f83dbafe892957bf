/**
 * The shop's SQLite file opened by a second process while the first holds it (two workers starting at once): the
 * second does not fail to start, and both see one shop. Real files, a real second process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openShopDb } from './shop-db.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openShopDb', () => {
  it('opens a file another process is writing to as it starts, instead of failing on the switch to WAL', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'shop-db-'));
    const file = path.join(dir, 'shop.sqlite');
    new Database(file).exec('CREATE TABLE IF NOT EXISTS held (x)');
    // The other process is in a write transaction for a moment, as a first worker is while it creates and seeds the
    // shop: SQLite refuses the switch to WAL then with SQLITE_BUSY at once, without waiting out the busy timeout.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
         db.exec('BEGIN IMMEDIATE'); process.stdout.write('held\\n');
         setTimeout(() => { db.exec('COMMIT'); db.close(); }, 500);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const db = openShopDb(file);
    expect(db.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 5 });
    db.close();
    await new Promise((resolve) => holder.once('exit', resolve));
  });
});
