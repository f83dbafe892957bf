/**
 * bench/installed-sdk.ts: the bench refuses to measure a Temporal SDK whose files were changed after npm installed
 * it, and finds none changed in the SDK this project installed. No server.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changedSdkFiles, NODE_MODULES, refuseChangedSdk } from '../../bench/installed-sdk.js';

let root: string;
const installedAt = new Date('2026-01-01T00:00:00Z');
const later = (seconds: number) => new Date(installedAt.getTime() + seconds * 1000);

/** Writes a file into the fake node_modules, with the given time. */
function write(relative: string, at: Date): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '// code\n');
  utimesSync(file, at, at);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'installed-sdk-'));
  write('@temporalio/worker/package.json', installedAt);
  write('@temporalio/worker/lib/worker.js', later(5));
  write('@temporalio/worker/lib/workflow/vm-shared.js', later(9 * 60));
  write('@temporalio/common/package.json', installedAt);
  write('@temporalio/common/lib/index.js', installedAt);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('changedSdkFiles', () => {
  it('finds nothing in packages written together', () => {
    expect(changedSdkFiles(root)).toEqual([]);
  });

  it('names each file written well after its package, in any package and any depth', () => {
    write('@temporalio/worker/lib/worker.js', later(3 * 3600));
    write('@temporalio/common/lib/index.js', later(11 * 60));
    expect(changedSdkFiles(root).sort()).toEqual(['@temporalio/common/lib/index.js', '@temporalio/worker/lib/worker.js']);
  });

  it('leaves packages nested in a package to their own install', () => {
    write('@temporalio/worker/node_modules/dep/index.js', later(3600));
    expect(changedSdkFiles(root)).toEqual([]);
  });

  it('finds nothing where no Temporal package is installed', () => {
    expect(changedSdkFiles(path.join(root, 'nowhere'))).toEqual([]);
  });

  it('finds nothing changed in the SDK this project installed', () => {
    expect(changedSdkFiles(NODE_MODULES)).toEqual([]);
  });
});

describe('refuseChangedSdk', () => {
  it('refuses a changed SDK, naming the files', () => {
    write('@temporalio/worker/lib/worker.js', later(3600));
    expect(() => refuseChangedSdk(root)).toThrow(/changed after it was installed[\s\S]*@temporalio\/worker\/lib\/worker\.js/);
  });

  it('measures a changed SDK only when told to, and says which files', () => {
    write('@temporalio/worker/lib/worker.js', later(3600));
    vi.stubEnv('BENCH_ALLOW_CHANGED_SDK', '1');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(refuseChangedSdk(root)).toEqual(['@temporalio/worker/lib/worker.js']);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('@temporalio/worker/lib/worker.js'));
  });

  it('lets an unchanged SDK through', () => {
    expect(refuseChangedSdk(root)).toEqual([]);
  });
});
