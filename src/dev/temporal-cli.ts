/**
 * Finds or builds the `temporal` CLI, which carries the dev server used by `npm start`, the tests and the
 * benchmarks. Routes, in order: `TEMPORAL_CLI_PATH`, `temporal` on PATH, a cached build, a Go build from the
 * module proxy, and the SDK's own download (machines with internet).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { TemporalCliNotFoundError } from '../errors.js';

/** The one place the CLI version is pinned. v1.5.1 has no `replace` directive, so `go install pkg@version` builds it. */
export const TEMPORAL_CLI_VERSION = '1.5.1';
const CLI_MODULE = 'github.com/temporalio/cli';

export type CliSource = 'env' | 'path' | 'cache' | 'go-build' | 'sdk-download';
export interface TemporalCli {
  path: string;
  source: CliSource;
}
export type Progress = (line: string) => void;

const defaultProgress: Progress = (line) => process.stderr.write(`[temporal-cli] ${line}\n`);

/** Directory the project caches the CLI in, keyed by version. */
export function cliCacheDir(version = TEMPORAL_CLI_VERSION): string {
  return path.join(envPaths('temporal-hitl-agent', { suffix: '' }).cache, 'temporal-cli', version);
}

export function cachedCliPath(version = TEMPORAL_CLI_VERSION): string {
  return path.join(cliCacheDir(version), process.platform === 'win32' ? 'temporal.exe' : 'temporal');
}

/** Returns a runnable `temporal` binary, building or downloading it the first time. */
export async function ensureTemporalCli(progress: Progress = defaultProgress): Promise<TemporalCli> {
  const tried: string[] = [];

  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, source: 'env' };
    tried.push(`TEMPORAL_CLI_PATH=${fromEnv} is not an executable file`);
  } else tried.push('TEMPORAL_CLI_PATH is not set');

  const onPath = findOnPath(process.platform === 'win32' ? 'temporal.exe' : 'temporal');
  if (onPath) return { path: onPath, source: 'path' };
  tried.push('no `temporal` on PATH');

  const cached = cachedCliPath();
  if (isExecutable(cached)) return { path: cached, source: 'cache' };
  tried.push(`no cached build at ${cached}`);

  const go = findOnPath(process.platform === 'win32' ? 'go.exe' : 'go');
  if (go) {
    try {
      await goBuild(go, cached, progress);
      return { path: cached, source: 'go-build' };
    } catch (err) {
      tried.push(`the Go build failed: ${(err as Error).message}`);
    }
  } else tried.push('no `go` on PATH to build it from the Go module proxy');

  try {
    return { path: await sdkDownload(progress), source: 'sdk-download' };
  } catch (err) {
    tried.push(`the SDK's download failed: ${(err as Error).message}`);
  }
  throw new TemporalCliNotFoundError(tried);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** Builds into a temporary GOBIN, then renames into the cache so a half-built binary is never found. */
async function goBuild(go: string, target: string, progress: Progress): Promise<void> {
  mkdirSync(path.dirname(target), { recursive: true });
  const gobin = mkdtempSync(path.join(path.dirname(target), 'build-'));
  const started = Date.now();
  progress(`building temporal CLI v${TEMPORAL_CLI_VERSION} with Go from the module proxy (first time only; takes a few minutes)`);
  const ticker = setInterval(() => progress(`still building… ${Math.round((Date.now() - started) / 1000)}s`), 15_000);
  try {
    await run(
      go,
      [
        'install',
        '-trimpath',
        `-ldflags=-s -w -X ${CLI_MODULE}/temporalcli.Version=${TEMPORAL_CLI_VERSION}`,
        `${CLI_MODULE}/cmd/temporal@v${TEMPORAL_CLI_VERSION}`,
      ],
      { ...process.env, GOBIN: gobin, GOFLAGS: '-mod=mod' },
      (line) => {
        if (line.startsWith('go: downloading')) progress(line);
      },
    );
    const built = path.join(gobin, path.basename(target));
    if (!existsSync(built)) throw new Error(`go install finished but produced no ${path.basename(target)}`);
    renameSync(built, target);
    progress(`built ${target} in ${Math.round((Date.now() - started) / 1000)}s`);
  } finally {
    clearInterval(ticker);
    rmSync(gobin, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * The SDK downloads the CLI when it starts a local server; start one into our cache directory, stop it, and keep
 * the binary it left there.
 */
async function sdkDownload(progress: Progress): Promise<string> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const downloadDir = path.join(cliCacheDir(), 'sdk-download');
  mkdirSync(downloadDir, { recursive: true });
  progress('downloading the temporal CLI through the Temporal SDK');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'cached-download', downloadDir, version: `v${TEMPORAL_CLI_VERSION}` } },
  });
  await env.teardown();
  const binary = findExecutableUnder(downloadDir);
  if (!binary) throw new Error(`the SDK started a server but left no executable under ${downloadDir}`);
  return binary;
}

function findExecutableUnder(dir: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findExecutableUnder(full);
      if (found) return found;
    } else if (entry.name.startsWith('temporal') && isExecutable(full)) return full;
  }
  return undefined;
}

/** `npm run temporal-cli`: make sure the CLI exists and print where it is. */
if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  ensureTemporalCli()
    .then((cli) => console.log(`${cli.path} (${cli.source})`))
    .catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
}
