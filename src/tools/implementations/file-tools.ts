/** The demo tools that write files: a sandboxed workspace and an email outbox (effects recorded in the shop ledger). */
import { appendFileSync, closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { implementTool } from '../implement-tool.js';
import { sendEmail } from '../specs/send-email.js';
import { writeFile } from '../specs/write-file.js';
import { onceByKey, type ShopDb } from './shop-db.js';
import { withoutDirectory, workspaceFile, writeError } from './workspace-paths.js';

/** 'w' that fails (ELOOP) on a link in the last name: one made between the check and the write is not followed. */
const WRITE_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

export function fileTools(db: ShopDb, workspaceDir: string, outboxFile: string) {
  return [
    // Through the ledger: a retry must not overwrite what someone changed after the first attempt wrote. A path that
    // cannot name a file is refused before anything is written (workspace-paths.ts).
    implementTool(writeFile, ({ path: relative, content }, ctx) => {
      const root = path.resolve(workspaceDir);
      const target = workspaceFile(root, relative);
      return onceByKey(db, ctx.idempotencyKey, 'write_file', () => {
        try {
          mkdirSync(path.dirname(target), { recursive: true });
          const fd = openSync(target, WRITE_NO_FOLLOW);
          try {
            writeFileSync(fd, content);
          } finally {
            closeSync(fd);
          }
        } catch (err) {
          throw writeError(err, root, relative, target);
        }
        return `Wrote ${Buffer.byteLength(content)} bytes to ${relative}.`;
      });
    }),

    // One JSON line per email, carrying its idempotency key; a retry finds its line and sends nothing.
    implementTool(sendEmail, ({ to, subject, body }, ctx) => {
      try {
        mkdirSync(path.dirname(outboxFile), { recursive: true });
        const sent =
          existsSync(outboxFile) && readFileSync(outboxFile, 'utf8').includes(`"idempotencyKey":${JSON.stringify(ctx.idempotencyKey)}`);
        if (!sent) appendFileSync(outboxFile, JSON.stringify({ idempotencyKey: ctx.idempotencyKey, to, subject, body }) + '\n');
      } catch (err) {
        // The outbox's directory is the worker's business, not the model's.
        throw withoutDirectory(err, path.dirname(path.resolve(outboxFile)));
      }
      return `Email to ${to} sent.`;
    }),
  ];
}
