/**
 * Finds or builds the `temporal` CLI, which carries the dev server used by `npm start`, the tests and the
 * benchmarks. Routes, in order: `TEMPORAL_CLI_PATH`, `temporal` on PATH, a cached build, a Go build from the
 * module proxy, and the SDK's own download (machines with internet).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { TemporalCliNotFoundError } from './setup-errors.js';
import { exeName, findOnPath, goInstall, isExecutable, isMain, toolCacheDir, type Progress } from './go-build.js';

/** The one place the CLI version is pinned. v1.5.1 has no `replace` directive, so `go install pkg@version` builds it. */
export const TEMPORAL_CLI_VERSION = '1.5.1';
const CLI_MODULE = 'github.com/temporalio/cli';

/**
 * The dev server's SQLite driver, newer than the one v1.5.1 asks for (v1.34.1). With v1.34.1 a persistence call
 * whose deadline passed mid-statement (a loaded machine) could leave the server's one connection interrupted for
 * good: every later call failed with "interrupted (9)", namespace lookups too, till the server restarted (a CI run
 * lost 65 test files so). From v1.51.0 a file-backed connection left interrupted is discarded and opened again; an
 * in-memory one cannot be (it is the database), so the suite's server keeps its state in a file.
 */
export const SQLITE_DRIVER = 'modernc.org/sqlite@v1.51.0';

/** What the cache is keyed by: a build with another driver is another binary. */
const BUILD_KEY = `${TEMPORAL_CLI_VERSION}+sqlite-${SQLITE_DRIVER.split('@v')[1]}`;

export type CliSource = 'env' | 'path' | 'cache' | 'go-build' | 'sdk-download';
export interface TemporalCli {
  path: string;
  source: CliSource;
}
export type { Progress };

/** Where a CLI found elsewhere comes from, for a warning that it lacks SQLITE_DRIVER. */
const ELSEWHERE: Record<Exclude<CliSource, 'cache' | 'go-build'>, string> = {
  env: 'TEMPORAL_CLI_PATH',
  path: '`temporal` on PATH',
  'sdk-download': `the Temporal SDK's download of stock v${TEMPORAL_CLI_VERSION}`,
};

/**
 * One line saying the CLI is not our build, so its dev server may still wedge; undefined for our build. A path set
 * to our cached build is ours too.
 */
export function withoutSqliteFix(cli: TemporalCli): string | undefined {
  if (cli.source === 'cache' || cli.source === 'go-build' || cli.path === cachedCliPath()) return undefined;
  return (
    `the temporal CLI comes from ${ELSEWHERE[cli.source]} (${cli.path}), not the project's build with ${SQLITE_DRIVER}: ` +
    `its dev server may wedge on an interrupted SQLite connection (every call failing with "interrupted (9)")`
  );
}

const defaultProgress: Progress = (line) => process.stderr.write(`[temporal-cli] ${line}\n`);

/** Directory the project caches the CLI in, keyed by version. */
export function cliCacheDir(version = BUILD_KEY): string {
  return toolCacheDir('temporal-cli', version);
}

export function cachedCliPath(version = BUILD_KEY): string {
  return path.join(cliCacheDir(version), exeName('temporal'));
}

/** Returns a runnable `temporal` binary, building or downloading it the first time. */
export async function ensureTemporalCli(progress: Progress = defaultProgress): Promise<TemporalCli> {
  const tried: string[] = [];

  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, source: 'env' };
    tried.push(`TEMPORAL_CLI_PATH=${fromEnv} is not an executable file`);
  } else tried.push('TEMPORAL_CLI_PATH is not set');

  const onPath = findOnPath(exeName('temporal'));
  if (onPath) return { path: onPath, source: 'path' };
  tried.push('no `temporal` on PATH');

  const cached = cachedCliPath();
  if (isExecutable(cached)) return { path: cached, source: 'cache' };
  tried.push(`no cached build at ${cached}`);

  const go = findOnPath(exeName('go'));
  if (go) {
    try {
      await goInstall(
        go,
        {
          label: `temporal CLI v${TEMPORAL_CLI_VERSION} (with ${SQLITE_DRIVER})`,
          packages: [`${CLI_MODULE}/cmd/temporal@v${TEMPORAL_CLI_VERSION}`],
          ldflags: `-s -w -X ${CLI_MODULE}/temporalcli.Version=${TEMPORAL_CLI_VERSION}`,
          targets: { temporal: cached },
          upgrades: [SQLITE_DRIVER],
        },
        progress,
      );
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

/** Keyed by the CLI version alone: the SDK downloads the stock release, without SQLITE_DRIVER. */
export function sdkDownloadDir(): string {
  return path.join(cliCacheDir(TEMPORAL_CLI_VERSION), 'sdk-download');
}

/**
 * The SDK downloads the CLI when it starts a local server; start one into our cache directory, stop it, and keep
 * the binary it left there.
 */
async function sdkDownload(progress: Progress): Promise<string> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const downloadDir = sdkDownloadDir();
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

/**
 * `npm run temporal-cli`: make sure the CLI exists and print where it is. Its path alone goes to stdout, so that
 * `$(npm run --silent temporal-cli) workflow list` runs it; where it was found goes to stderr.
 */
if (isMain(import.meta.url)) {
  ensureTemporalCli()
    .then((cli) => {
      defaultProgress(`found: ${cli.source}`);
      console.log(cli.path);
    })
    .catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
}
