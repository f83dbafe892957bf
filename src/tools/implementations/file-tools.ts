/** The demo tools that write files: a sandboxed workspace and an email outbox (effects recorded in the shop ledger). */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ToolRefusedError } from '../../errors.js';
import { implementTool } from '../implement-tool.js';
import { sendEmail } from '../specs/send-email.js';
import { writeFile } from '../specs/write-file.js';
import { onceByKey, type ShopDb } from './shop-db.js';

/** Resolves `relative` inside `root`, refusing absolute paths and anything that escapes it. */
export function insideWorkspace(root: string, relative: string): string {
  const target = path.resolve(root, relative);
  if (path.isAbsolute(relative) || (target !== root && !target.startsWith(root + path.sep))) {
    throw new ToolRefusedError(`Path ${relative} is outside the workspace; use a relative path inside it.`);
  }
  return target;
}

export function fileTools(db: ShopDb, workspaceDir: string, outboxFile: string) {
  return [
    // Through the ledger: a retry must not overwrite what someone changed after the first attempt wrote.
    implementTool(writeFile, ({ path: relative, content }, ctx) => {
      const target = insideWorkspace(path.resolve(workspaceDir), relative);
      return onceByKey(db, ctx.idempotencyKey, 'write_file', () => {
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, content);
        return `Wrote ${Buffer.byteLength(content)} bytes to ${relative}.`;
      });
    }),

    // One JSON line per email, carrying its idempotency key; a retry finds its line and sends nothing.
    implementTool(sendEmail, ({ to, subject, body }, ctx) => {
      mkdirSync(path.dirname(outboxFile), { recursive: true });
      const sent =
        existsSync(outboxFile) && readFileSync(outboxFile, 'utf8').includes(`"idempotencyKey":${JSON.stringify(ctx.idempotencyKey)}`);
      if (!sent) appendFileSync(outboxFile, JSON.stringify({ idempotencyKey: ctx.idempotencyKey, to, subject, body }) + '\n');
      return `Email to ${to} sent.`;
    }),
  ];
}
