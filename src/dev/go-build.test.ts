/**
 * goInstall's checks before it builds: every package and upgrade names its version, and the go commands run outside
 * any workspace. The stand-in for `go` is a shell script that prints the GOWORK it was given and fails, so the
 * error goInstall throws carries it.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { goInstall, type GoInstall } from './go-build.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function build(overrides: Partial<GoInstall>): GoInstall {
  dir = mkdtempSync(path.join(tmpdir(), 'hitl-go-build-'));
  return {
    label: 'tool v1.0.0',
    packages: ['example.com/tool/cmd/tool@v1.0.0'],
    ldflags: '-s -w',
    targets: { tool: path.join(dir, 'bin', 'tool') },
    upgrades: ['example.com/dep@v2.0.0'],
    ...overrides,
  };
}

describe('goInstall', () => {
  it.each([
    ['a package without a version', { packages: ['example.com/tool/cmd/tool'] }, 'example.com/tool/cmd/tool'],
    ['an upgrade without a version', { upgrades: ['example.com/dep'] }, 'example.com/dep'],
    ['an empty version', { upgrades: ['example.com/dep@'] }, 'example.com/dep@'],
  ])('refuses %s, before it runs go or makes a directory', async (_, overrides, named) => {
    const b = build(overrides);
    await expect(goInstall(path.join(dir, 'go'), b, () => {})).rejects.toThrow(`"${named}" names no version`);
    expect(existsSync(path.join(dir, 'bin'))).toBe(false);
  });

  it('runs go with GOWORK=off, whatever GOWORK the user set', async () => {
    const b = build({});
    const go = path.join(dir, 'go');
    writeFileSync(go, '#!/bin/sh\necho "GOWORK=$GOWORK"\nexit 1\n');
    chmodSync(go, 0o755);
    vi.stubEnv('GOWORK', path.join(dir, 'go.work'));
    try {
      await expect(goInstall(go, b, () => {})).rejects.toThrow(/exited with 1:\nGOWORK=off$/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
