/**
 * Whether the Temporal SDK the bench runs is the one npm installed. Profiling by hand means adding timestamps to the
 * SDK's own files now and then; a full run taken while such an edit was still in place measured that edit too (it
 * happened once: a synchronous file write on every update's activation). So every measuring command looks first,
 * and refuses to measure an SDK changed since it was installed.
 *
 * How it tells: npm writes a package's files together when it installs it, so a file written well after its
 * package's package.json was written later, by someone else. That is a heuristic, not a checksum (npm keeps no hash
 * per file): a change that restores the file's time (`touch -r`) passes.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { BENCH_DIR } from './ipc.js';

/** The project's node_modules, where the SDK the bench measures is installed. */
export const NODE_MODULES = path.join(BENCH_DIR, '..', 'node_modules');

/**
 * Far longer than npm takes to write one package (8 s for the largest, core-bridge, on a 2-core machine), shorter than
 * the time between an install and an edit made to profile.
 */
const INSTALL_WINDOW_MS = 10 * 60_000;

/** Files of `@temporalio/*` packages under `nodeModules` written more than ten minutes after their package.json. */
export function changedSdkFiles(nodeModules: string): string[] {
  const scope = path.join(nodeModules, '@temporalio');
  let packages: string[];
  try {
    packages = readdirSync(scope);
  } catch {
    return [];
  }
  return packages.flatMap((name) => {
    const dir = path.join(scope, name);
    const installedAt = statSync(path.join(dir, 'package.json')).mtimeMs;
    return filesUnder(dir)
      .filter((file) => statSync(file).mtimeMs > installedAt + INSTALL_WINDOW_MS)
      .map((file) => path.relative(nodeModules, file));
  });
}

/** A package's own files; packages nested in its node_modules are their own packages. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

/**
 * Throws when the SDK was changed after it was installed, unless `BENCH_ALLOW_CHANGED_SDK=1` (for profiling by hand:
 * the files are listed on stderr, and a full run records them in results.json's `machine.temporalSdkChangedFiles`).
 */
export function refuseChangedSdk(nodeModules: string): string[] {
  const changed = changedSdkFiles(nodeModules);
  if (changed.length === 0) return changed;
  const list = changed.map((file) => `  ${file}`).join('\n');
  if (process.env.BENCH_ALLOW_CHANGED_SDK === '1') {
    console.error(`[bench] measuring a Temporal SDK changed since it was installed (BENCH_ALLOW_CHANGED_SDK=1):\n${list}`);
    return changed;
  }
  throw new Error(
    `the Temporal SDK was changed after it was installed, so this would measure the change too:\n${list}\n` +
      'reinstall it (rm -rf node_modules/@temporalio && npm ci), or set BENCH_ALLOW_CHANGED_SDK=1 to measure it anyway',
  );
}
