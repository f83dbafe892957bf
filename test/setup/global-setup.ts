/**
 * One dev server and one workflow bundle for the whole suite; both torn down at the end, and the server also on a
 * crash or Ctrl-C (see the dev-server harness). With TEMPORAL_ADDRESS set, that server is used.
 *
 * The server keeps its state in a file, not in memory: a connection its SQLite driver gives up on (interrupted by a
 * deadline on a loaded machine) is then opened again, where an in-memory one would hold the whole database and
 * fail every call till the end of the suite (src/dev/temporal-cli.ts, SQLITE_DRIVER). The state is thrown away at
 * the end, so nothing waits for the disk; the server's log is kept when tests failed.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { externalAddress, startDevServer } from '../../src/dev/dev-server.js';
import { withoutSqliteFix } from '../../src/dev/temporal-cli.js';
import { bundleWorkflows } from '../../src/workflow-bundle.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalNamespace: string;
    temporalCliPath: string;
    workflowBundlePath: string;
  }
}

/** The suite's workflow bundle, written once to a temporary file; `remove` deletes it. */
export async function writeWorkflowBundle(): Promise<{ bundlePath: string; remove(): void }> {
  const bundle = await bundleWorkflows({ logger: quietLogger });
  const dir = mkdtempSync(path.join(tmpdir(), 'hitl-bundle-'));
  const bundlePath = path.join(dir, 'workflows.js');
  writeFileSync(bundlePath, bundle.code);
  return { bundlePath, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  // The server at TEMPORAL_ADDRESS keeps its own state: a directory is made only for a server we start.
  const stateDir = externalAddress() ? undefined : mkdtempSync(path.join(tmpdir(), 'hitl-suite-server-'));
  const removeStateDir = () => {
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  };
  const serverOptions = stateDir
    ? { dbFile: path.join(stateDir, 'temporal.db'), sqlitePragmas: { journal_mode: 'wal', synchronous: 'off' } }
    : {};
  const starting = startDevServer({ uiPort: false, ...serverOptions });
  const bundling = writeWorkflowBundle();
  const [server, bundle] = await Promise.all([starting, bundling]).catch(async (err: unknown) => {
    // Whichever of the two succeeded is undone, and the state directory goes with its server.
    await Promise.all([starting.then((s) => s.stop()), bundling.then((b) => b.remove())].map((p) => p.catch(() => {})));
    removeStateDir();
    throw err;
  });
  if (server.cliPath && server.cliSource) {
    const warning = withoutSqliteFix({ path: server.cliPath, source: server.cliSource });
    if (warning) console.warn(`[global-setup] ${warning}`);
  }
  project.provide('temporalAddress', server.address);
  project.provide('temporalNamespace', server.namespace);
  project.provide('temporalCliPath', server.cliPath ?? 'temporal');
  project.provide('workflowBundlePath', bundle.bundlePath);
  console.log(`[global-setup] Temporal at ${server.address}, bundle ready in ${Date.now() - started}ms`);
  return async () => {
    // Whatever fails here (the server's stop, the log's copy), nothing of the suite's is left behind.
    try {
      await server.stop();
      // A failed run's server log says whether the server was at fault (e.g. "interrupted (9)"); keep it outside the
      // state directory, which goes. The state API is experimental: a vitest upgrade that changes it fails tsc here.
      if (stateDir && server.logFile && existsSync(server.logFile) && project.vitest.state.getCountOfFailedTests() > 0) {
        const kept = path.join(tmpdir(), `${path.basename(stateDir)}.log`);
        copyFileSync(server.logFile, kept);
        console.warn(`[global-setup] tests failed: the dev server's log is kept at ${kept}`);
      }
    } finally {
      bundle.remove();
      removeStateDir();
    }
  };
}

const quietLogger = {
  log() {},
  trace() {},
  debug() {},
  info() {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
