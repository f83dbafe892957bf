/**
 * The paths `write_file` takes, checked before anything is written, and the file system's answers about them in
 * words the model can act on. A path the model gave is named as it gave it; the worker's own directories never
 * appear in what the model reads (Node's errors name absolute paths).
 */
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { ToolRefusedError } from '../../errors.js';

/** NAME_MAX on Linux and macOS: the longest one name in a path may be, in bytes. */
const MAX_NAME_BYTES = 255;

/** Resolves `relative` inside `root`, refusing absolute paths and anything that escapes it. */
export function insideWorkspace(root: string, relative: string): string {
  const target = path.resolve(root, relative);
  if (path.isAbsolute(relative) || (target !== root && !target.startsWith(root + path.sep))) {
    throw new ToolRefusedError(`Path ${shown(relative)} is outside the workspace; use a relative path inside it.`);
  }
  return target;
}

/** The file `relative` names inside `root`; refuses (ToolRefusedError) a path that cannot name a file there. */
export function workspaceFile(root: string, relative: string): string {
  if (relative.includes('\0')) throw new ToolRefusedError('A path may not hold a NUL character; name the file without it.');
  const target = insideWorkspace(root, relative);
  if (target === root) throw new ToolRefusedError(`Path ${shown(relative)} names the workspace itself, not a file; name a file inside it.`);
  if (/[\\/]$/.test(relative)) {
    throw new ToolRefusedError(`Path ${shown(relative)} ends with a slash, so it names a directory, not a file; name a file inside it.`);
  }
  if (relative.split(/[\\/]/).some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)) {
    throw new ToolRefusedError(`Path ${shown(relative)} has a name longer than ${MAX_NAME_BYTES} bytes; use shorter names.`);
  }
  // A link inside the workspace may point anywhere, and the model cannot see where: writing through one could change
  // a file outside it. The open that writes follows no link in the last name either (O_NOFOLLOW, writeError).
  const link = linkOnTheWay(root, target);
  if (link === path.relative(root, target).split(path.sep).join('/')) {
    throw new ToolRefusedError(
      `Path ${shown(relative)} is a symbolic link; write_file follows no links. Name a file inside the workspace.`,
    );
  }
  if (link) throw new ToolRefusedError(`Path ${shown(relative)} goes through ${link}, a symbolic link; write_file follows no links.`);
  return target;
}

/**
 * What writing `relative` (resolved to `target` inside `root`) threw, for the model: a refusal when the path cannot
 * be written whatever is tried again (a directory, a file where a directory must be, too long); else the error with
 * its code kept (a full disk, a permission: the tool's retry policy and `onError` codes apply) and its paths made
 * relative to the workspace.
 */
export function writeError(err: unknown, root: string, relative: string, target: string): unknown {
  const code = (err as { code?: unknown }).code;
  const syscall = (err as { syscall?: unknown }).syscall;
  if (code === 'EISDIR') return new ToolRefusedError(`Path ${shown(relative)} is a directory, not a file; name a file inside it.`);
  if (syscall === 'mkdir' && (code === 'EEXIST' || code === 'ENOTDIR')) {
    const file = fileOnTheWay(root, target);
    if (file) return new ToolRefusedError(`Path ${shown(relative)} goes through ${file}, which is a file, not a directory.`);
  }
  if (code === 'ELOOP') {
    return new ToolRefusedError(
      `Path ${shown(relative)} is a symbolic link; write_file follows no links. Name a file inside the workspace.`,
    );
  }
  if (code === 'ENAMETOOLONG') return new ToolRefusedError(`Path ${shown(relative)} is too long for the file system; use a shorter one.`);
  return withoutDirectory(err, root);
}

/**
 * `err` with `dir` (an absolute directory of the worker's) left out of its message: the paths it names become
 * relative to `dir`. Its code, errno and syscall are kept; anything that is not an Error is returned as it is.
 */
export function withoutDirectory(err: unknown, dir: string): unknown {
  if (!(err instanceof Error) || !err.message.includes(dir)) return err;
  const message = err.message.replaceAll(dir + path.sep, '').replaceAll(dir, '.');
  const { code, errno, syscall } = err as NodeJS.ErrnoException;
  return Object.assign(new Error(message), { name: err.name, code, errno, syscall });
}

/** The first name on the way to `target`, or `target` itself, that is a symbolic link (relative to `root`), if any. */
function linkOnTheWay(root: string, target: string): string | undefined {
  const names = path.relative(root, target).split(path.sep);
  for (let i = 1; i <= names.length; i++) {
    let stat;
    try {
      stat = lstatSync(path.join(root, ...names.slice(0, i)), { throwIfNoEntry: false });
    } catch {
      return undefined; // a file on the way (ENOTDIR): the write's own error says so
    }
    if (!stat) return undefined;
    if (stat.isSymbolicLink()) return names.slice(0, i).join('/');
  }
  return undefined;
}

/** The first name on the way to `target` that is a file (relative to `root`), if any. */
function fileOnTheWay(root: string, target: string): string | undefined {
  const names = path.relative(root, target).split(path.sep).slice(0, -1);
  for (let i = 1; i <= names.length; i++) {
    const stat = statSync(path.join(root, ...names.slice(0, i)), { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) return names.slice(0, i).join('/');
  }
  return undefined;
}

/** The path as the model gave it, cut if long (a refusal of a 4 KB path need not repeat it). */
function shown(relative: string): string {
  return relative.length > 120 ? `${relative.slice(0, 100)}… (${relative.length} characters)` : relative;
}
