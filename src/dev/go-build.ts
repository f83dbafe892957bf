/**
 * Finding and building the Go binaries the project runs (the temporal CLI, the Temporal server and its SQL tool):
 * an executable on PATH, or `go install` from the module proxy into the project's cache directory, keyed by
 * version.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';

export type Progress = (line: string) => void;

/** The project's cache directory for one tool at one version. */
export function toolCacheDir(tool: string, version: string): string {
  return path.join(envPaths('temporal-hitl-agent', { suffix: '' }).cache, tool, version);
}

export function exeName(name: string): string {
  return process.platform === 'win32' ? `${name}.exe` : name;
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

export interface GoInstall {
  /** What the progress lines call it, e.g. `temporal CLI v1.5.1`. */
  label: string;
  /** `module/path/cmd/x@vX.Y.Z`, one or more from the same module version. */
  packages: string[];
  ldflags: string;
  /** For each package's binary (named after its last path element): where it goes. */
  targets: Record<string, string>;
  /**
   * Dependencies to build with at a newer version than the packages' module asks for (`module@vX.Y.Z`). `go install
   * pkg@version` takes the module's own versions only, so these build in a throwaway module that requires both.
   */
  upgrades?: string[];
}

/**
 * `go install` into a temporary GOBIN, then renames each binary into place, so a half-built binary is never found.
 * Takes a few minutes the first time; progress reports the modules it downloads and a tick every 15 s.
 */
export async function goInstall(go: string, build: GoInstall, progress: Progress): Promise<void> {
  // The throwaway module's `go install` names packages without their version (the part after the last `@`).
  for (const p of [...build.packages, ...(build.upgrades ?? [])]) {
    if (!/^[^@\s]+@[^@\s]+$/.test(p)) throw new Error(`${build.label}: "${p}" names no version (expected path@vX.Y.Z)`);
  }
  const dirs = [...new Set(Object.values(build.targets).map((t) => path.dirname(t)))];
  for (const dir of dirs) mkdirSync(dir, { recursive: true });
  const gobin = mkdtempSync(path.join(dirs[0]!, 'build-'));
  const started = Date.now();
  progress(`building ${build.label} with Go from the module proxy (first time only; takes a few minutes)`);
  const ticker = setInterval(() => progress(`still building… ${Math.round((Date.now() - started) / 1000)}s`), 15_000);
  // GOWORK=off: a go.work above the cache directory, or a GOWORK the user set, would put the go commands in
  // workspace mode, which refuses -mod=mod and does not hold the throwaway module.
  const env = { ...process.env, GOBIN: gobin, GOFLAGS: '-mod=mod', GOWORK: 'off' };
  const onLine = (line: string) => {
    if (line.startsWith('go: downloading')) progress(line);
  };
  try {
    if (build.upgrades?.length) {
      // The throwaway module lives in GOBIN's directory, which is removed below with it.
      const moduleDir = path.join(gobin, 'module');
      mkdirSync(moduleDir);
      writeFileSync(path.join(moduleDir, 'go.mod'), 'module temporal-hitl-agent/tool-build\n');
      const requires = [...build.packages, ...build.upgrades];
      await run(go, ['get', ...requires], env, onLine, moduleDir);
      const unversioned = build.packages.map((p) => p.slice(0, p.lastIndexOf('@')));
      await run(go, ['install', '-trimpath', `-ldflags=${build.ldflags}`, ...unversioned], env, onLine, moduleDir);
    } else {
      await run(go, ['install', '-trimpath', `-ldflags=${build.ldflags}`, ...build.packages], env, onLine);
    }
    for (const [binary, target] of Object.entries(build.targets)) {
      const built = path.join(gobin, exeName(binary));
      if (!existsSync(built)) throw new Error(`go install finished but produced no ${exeName(binary)}`);
      renameSync(built, target);
    }
    progress(`built ${Object.values(build.targets).join(', ')} in ${Math.round((Date.now() - started) / 1000)}s`);
  } finally {
    clearInterval(ticker);
    rmSync(gobin, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, onLine: (line: string) => void, cwd?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd && { cwd }) });
    const tail: string[] = [];
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        onLine(line);
        tail.push(line);
        if (tail.length > 20) tail.shift();
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} exited with ${code}:\n${tail.join('\n')}`)),
    );
  });
}

/** True when this module is the script node was started with (`npm run temporal-cli`, `npm run temporal-server`). */
export function isMain(importMetaUrl: string): boolean {
  return Boolean(process.argv[1]) && path.resolve(process.argv[1]!) === new URL(importMetaUrl).pathname;
}
