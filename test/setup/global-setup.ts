/**
 * One dev server (in memory) and one workflow bundle for the whole suite; both torn down at the end, and the
 * server also on a crash or Ctrl-C (see the dev-server harness).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevServer } from '../../src/dev/dev-server.js';
import { bundleWorkflows } from '../../src/workflow-bundle.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalNamespace: string;
    temporalCliPath: string;
    workflowBundlePath: string;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const [server, bundle] = await Promise.all([startDevServer({ uiPort: false }), bundleWorkflows({ logger: quietLogger })]);
  const dir = mkdtempSync(path.join(tmpdir(), 'hitl-bundle-'));
  const bundlePath = path.join(dir, 'workflows.js');
  writeFileSync(bundlePath, bundle.code);
  project.provide('temporalAddress', server.address);
  project.provide('temporalNamespace', server.namespace);
  project.provide('temporalCliPath', server.cliPath ?? 'temporal');
  project.provide('workflowBundlePath', bundlePath);
  console.log(`[global-setup] Temporal at ${server.address}, bundle ready in ${Date.now() - started}ms`);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
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
