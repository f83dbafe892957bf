/**
 * Finds or builds the Temporal server (`temporal-server`) and its SQL schema tool (`temporal-sql-tool`), which run
 * the PostgreSQL cluster of the `cluster` test suite, the way src/dev/temporal-cli.ts finds the CLI. Routes, in
 * order: `TEMPORAL_SERVER_PATH` / `TEMPORAL_SQL_TOOL_PATH`, the binaries on PATH, a cached build, and a Go build of
 * both from the module proxy (the CLI depends on the same server version, so its modules are mostly cached).
 */
import path from 'node:path';
import { TemporalServerNotFoundError } from './setup-errors.js';
import { exeName, findOnPath, goInstall, isExecutable, isMain, toolCacheDir, type Progress } from './go-build.js';

/** The server version the CLI's dev server embeds (cli v1.5.1 requires go.temporal.io/server v1.29.1). */
export const TEMPORAL_SERVER_VERSION = '1.29.1';
const SERVER_MODULE = 'go.temporal.io/server';

export type ServerBinarySource = 'env' | 'path' | 'cache' | 'go-build';
export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
  source: ServerBinarySource;
}

/** Each binary: its name on PATH and in the cache, its env override, and the package `go install` builds it from. */
const BINARIES = {
  server: { name: 'temporal-server', env: 'TEMPORAL_SERVER_PATH', pkg: 'cmd/server' },
  sqlTool: { name: 'temporal-sql-tool', env: 'TEMPORAL_SQL_TOOL_PATH', pkg: 'cmd/tools/sql' },
} as const;
type Binary = keyof typeof BINARIES;

const defaultProgress: Progress = (line) => process.stderr.write(`[temporal-server] ${line}\n`);

export function serverCacheDir(version = TEMPORAL_SERVER_VERSION): string {
  return toolCacheDir('temporal-server', version);
}

function cachedPath(binary: Binary): string {
  return path.join(serverCacheDir(), exeName(BINARIES[binary].name));
}

/** Both binaries from one route; a route that has only one of them is not taken. */
export async function ensureTemporalServer(progress: Progress = defaultProgress): Promise<TemporalServerBinaries> {
  const tried: string[] = [];
  const both = (find: (binary: Binary) => string | undefined) => {
    const server = find('server');
    const sqlTool = find('sqlTool');
    return server && sqlTool ? { server, sqlTool } : undefined;
  };

  const fromEnv = both((b) => process.env[BINARIES[b].env]);
  if (fromEnv) {
    const bad = Object.entries(fromEnv).filter(([, file]) => !isExecutable(file));
    if (bad.length === 0) return { ...fromEnv, source: 'env' };
    tried.push(`${bad.map(([b, file]) => `${BINARIES[b as Binary].env}=${file}`).join(', ')} is not an executable file`);
  } else tried.push(`${BINARIES.server.env} and ${BINARIES.sqlTool.env} are not both set`);

  const onPath = both((b) => findOnPath(exeName(BINARIES[b].name)));
  if (onPath) return { ...onPath, source: 'path' };
  tried.push('no temporal-server and temporal-sql-tool on PATH');

  const cached = { server: cachedPath('server'), sqlTool: cachedPath('sqlTool') };
  if (isExecutable(cached.server) && isExecutable(cached.sqlTool)) return { ...cached, source: 'cache' };
  tried.push(`no cached build in ${serverCacheDir()}`);

  const go = findOnPath(exeName('go'));
  if (!go) {
    tried.push('no `go` on PATH to build them from the Go module proxy');
    throw new TemporalServerNotFoundError('temporal-server and temporal-sql-tool', tried);
  }
  try {
    await goInstall(
      go,
      {
        label: `Temporal server and SQL tool v${TEMPORAL_SERVER_VERSION}`,
        packages: Object.values(BINARIES).map((b) => `${SERVER_MODULE}/${b.pkg}@v${TEMPORAL_SERVER_VERSION}`),
        ldflags: '-s -w',
        // go install names each binary after its package directory: cmd/server → server, cmd/tools/sql → sql.
        targets: { server: cached.server, sql: cached.sqlTool },
      },
      progress,
    );
    return { ...cached, source: 'go-build' };
  } catch (err) {
    tried.push(`the Go build failed: ${(err as Error).message}`);
    throw new TemporalServerNotFoundError('temporal-server and temporal-sql-tool', tried);
  }
}

/**
 * `npm run temporal-server`: make sure both binaries exist, and print their paths, the server's then the SQL tool's,
 * one a line and nothing else on stdout; where they were found goes to stderr.
 */
if (isMain(import.meta.url)) {
  ensureTemporalServer()
    .then((b) => {
      defaultProgress(`found: ${b.source}`);
      console.log(`${b.server}\n${b.sqlTool}`);
    })
    .catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
}
