/**
 * `write_file` through the real tool, on a real workspace: a path that cannot name a file there is refused with a
 * ToolRefusedError (not retried) that names the path as the model gave it and never the worker's directories, and
 * nothing is written or ledgered for it.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRefusedError } from '../../errors.js';
import type { ToolContext, ToolImplementation } from '../implement-tool.js';
import { fileTools } from './file-tools.js';
import { openShopDb, type ShopDb } from './shop-db.js';
import { withoutDirectory, writeError } from './workspace-paths.js';

let root: string;
let workspace: string;
let db: ShopDb;
let writeFile: ToolImplementation;
let calls = 0;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hitl-file-tools-'));
  workspace = path.join(root, 'workspace');
  db = openShopDb(path.join(root, 'shop.db'));
  writeFile = fileTools(db, workspace, path.join(root, 'outbox.jsonl')).find(
    (t) => t.spec.name === 'write_file',
  ) as unknown as ToolImplementation;
  mkdirSync(path.join(workspace, 'reports'), { recursive: true });
  writeFileSync(path.join(workspace, 'a.txt'), 'a');
});
afterAll(() => {
  db?.close();
  rmSync(root, { recursive: true, force: true });
});

const ctx = () => ({ idempotencyKey: `wf:call-${++calls}` }) as ToolContext;
const write = (relative: string, content = 'x') => Promise.resolve().then(() => writeFile.run({ path: relative, content }, ctx()));

async function refusal(relative: string): Promise<string> {
  const error = await write(relative).then(
    (result) => new Error(`not refused: ${JSON.stringify(result)}`),
    (err: unknown) => err,
  );
  if (!(error instanceof ToolRefusedError)) throw new Error(`${JSON.stringify(relative)}: not a ToolRefusedError: ${String(error)}`);
  return error.message;
}

describe('write_file refuses paths that cannot name a file in the workspace', () => {
  // [what it is, the path the model gave, the whole refusal it reads]
  const refused: [string, string, string][] = [
    ['a NUL character', 'nul\u0000byte.txt', 'A path may not hold a NUL character; name the file without it.'],
    ['the workspace', '.', 'Path . names the workspace itself, not a file; name a file inside it.'],
    ['the workspace, with a slash', './', 'Path ./ names the workspace itself, not a file; name a file inside it.'],
    ['the workspace, by way of ..', 'reports/..', 'Path reports/.. names the workspace itself, not a file; name a file inside it.'],
    ['a directory', 'reports', 'Path reports is a directory, not a file; name a file inside it.'],
    ['a new directory', 'new/', 'Path new/ ends with a slash, so it names a directory, not a file; name a file inside it.'],
    ['a file, as a directory', 'a.txt/', 'Path a.txt/ ends with a slash, so it names a directory, not a file; name a file inside it.'],
    ['a path through a file', 'a.txt/b', 'Path a.txt/b goes through a.txt, which is a file, not a directory.'],
    ['a deeper path through a file', 'a.txt/b/c.md', 'Path a.txt/b/c.md goes through a.txt, which is a file, not a directory.'],
    [
      'a name of 256 bytes',
      'x'.repeat(256),
      `Path ${'x'.repeat(100)}… (256 characters) has a name longer than 255 bytes; use shorter names.`,
    ],
    [
      'a path of 4201 bytes',
      'd/'.repeat(2100) + 'f',
      `Path ${'d/'.repeat(50)}… (4201 characters) is too long for the file system; use a shorter one.`,
    ],
  ];

  it.each(refused)('%s', async (_what, relative, expected) => {
    const message = await refusal(relative);
    expect(message).toBe(expected);
    expect(message).not.toContain(root);
  });

  it('wrote and ledgered nothing for them, and still writes a file that can be written', async () => {
    expect(readdirSync(workspace).sort()).toEqual(['a.txt', 'reports']);
    expect(readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('a');
    expect(db.prepare('SELECT count(*) AS n FROM tool_effects').get()).toEqual({ n: 0 });
    expect(await write('reports/2024/summary.md', 'fine')).toBe('Wrote 4 bytes to reports/2024/summary.md.');
    expect(readFileSync(path.join(workspace, 'reports', '2024', 'summary.md'), 'utf8')).toBe('fine');
  });
});

describe('write_file follows no symbolic link, so it never writes outside the workspace', () => {
  let outside: string;
  beforeAll(() => {
    outside = path.join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.txt'), 'keep');
    symlinkSync(outside, path.join(workspace, 'out'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'link.txt'));
    symlinkSync(path.join(outside, 'missing.txt'), path.join(workspace, 'dangling.txt'));
    mkdirSync(path.join(workspace, 'deep'));
    symlinkSync(outside, path.join(workspace, 'deep', 'out'));
  });

  const refused: [string, string, string][] = [
    ['a link to a directory outside', 'out/new.txt', 'Path out/new.txt goes through out, a symbolic link; write_file follows no links.'],
    ['a link, deeper', 'deep/out/x/y.txt', 'Path deep/out/x/y.txt goes through deep/out, a symbolic link; write_file follows no links.'],
    [
      'a link to a file outside',
      'link.txt',
      'Path link.txt is a symbolic link; write_file follows no links. Name a file inside the workspace.',
    ],
    [
      'a link to nothing yet',
      'dangling.txt',
      'Path dangling.txt is a symbolic link; write_file follows no links. Name a file inside the workspace.',
    ],
    ['the link itself', 'out', 'Path out is a symbolic link; write_file follows no links. Name a file inside the workspace.'],
  ];

  it.each(refused)('%s', async (_what, relative, expected) => {
    const message = await refusal(relative);
    expect(message).toBe(expected);
    expect(message).not.toContain(root);
  });

  it('left everything outside as it was', () => {
    expect(readdirSync(outside).sort()).toEqual(['secret.txt']);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep');
  });

  it('refuses a link made after the check, which the write’s open finds (ELOOP)', () => {
    const loop = Object.assign(new Error(`ELOOP: too many symbolic links encountered, open '${workspace}/late.txt'`), {
      code: 'ELOOP',
      syscall: 'open',
    });
    const refusedLate = writeError(loop, workspace, 'late.txt', path.join(workspace, 'late.txt'));
    expect(refusedLate).toBeInstanceOf(ToolRefusedError);
    expect((refusedLate as Error).message).toBe(
      'Path late.txt is a symbolic link; write_file follows no links. Name a file inside the workspace.',
    );
  });
});

describe('a file system error that is not the path’s fault', () => {
  it('keeps its code (for retries and onError) and names paths relative to the worker’s directory', () => {
    let thrown!: NodeJS.ErrnoException;
    try {
      readFileSync(path.join(workspace, 'reports', 'missing.txt'));
    } catch (err) {
      thrown = err as NodeJS.ErrnoException;
    }
    expect(thrown.message).toContain(workspace);
    const cleaned = withoutDirectory(thrown, workspace) as NodeJS.ErrnoException;
    expect(cleaned).toBeInstanceOf(Error);
    expect(cleaned.message).toBe("ENOENT: no such file or directory, open 'reports/missing.txt'");
    expect({ code: cleaned.code, syscall: cleaned.syscall, errno: cleaned.errno }).toEqual({
      code: 'ENOENT',
      syscall: 'open',
      errno: thrown.errno,
    });
    expect(withoutDirectory(thrown, path.join(root, 'elsewhere'))).toBe(thrown);
  });
});
