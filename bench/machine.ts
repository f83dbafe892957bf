/** The machine the numbers come from. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../src/dev/server-dynamic-config.js';
import { changedSdkFiles, NODE_MODULES } from './installed-sdk.js';
import type { BenchResults } from './schema.js';

const require = createRequire(import.meta.url);

function packageVersion(name: string): string {
  // Walk up from the resolved entry point to the package's own package.json.
  let dir = path.dirname(require.resolve(name));
  while (dir !== path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name) return pkg.version ?? 'unknown';
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

function osName(): string {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1] ?? os.type();
  } catch {
    return `${os.type()} ${os.release()}`;
  }
}

export function machineDetails(
  cliPath: string | undefined,
  serverStorage: BenchResults['machine']['serverStorage'],
): BenchResults['machine'] {
  let temporalCli = 'unknown';
  try {
    temporalCli = execFileSync(cliPath ?? 'temporal', ['--version'], { encoding: 'utf8' }).trim();
  } catch (err) {
    temporalCli = `unknown (${(err as Error).message.split('\n')[0]})`;
  }
  return {
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    ramBytes: os.totalmem(),
    os: osName(),
    kernel: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    temporalCli,
    temporalSdk: packageVersion('@temporalio/worker'),
    // Empty unless the run was told to measure a changed SDK (installed-sdk.ts); RESULTS.md then says so.
    temporalSdkChangedFiles: changedSdkFiles(NODE_MODULES),
    langgraph: `@langchain/langgraph ${packageVersion('@langchain/langgraph')}, @langchain/langgraph-checkpoint-sqlite ${packageVersion('@langchain/langgraph-checkpoint-sqlite')}`,
    serverStorage,
    serverDynamicConfig: DEV_SERVER_DYNAMIC_CONFIG,
  };
}
