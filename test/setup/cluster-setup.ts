/**
 * The `cluster` suite's global setup (vitest.cluster.config.ts): a real Temporal cluster on PostgreSQL
 * (src/dev/temporal-cluster.ts) instead of the dev server, started once for every file, and the same workflow
 * bundle. Test files get the same values as on the dev server, plus the PostgreSQL cluster's handle, so a fault
 * test can restart it.
 */
import type { TestProject } from 'vitest/node';
import type { PostgresHandle } from '../../src/dev/postgres.js';
import { ensureTemporalCli } from '../../src/dev/temporal-cli.js';
import { startTemporalCluster } from '../../src/dev/temporal-cluster.js';
import { writeWorkflowBundle } from './global-setup.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the cluster suite only: the PostgreSQL cluster under its Temporal server. */
    clusterPostgres?: PostgresHandle;
    /** Set by the cluster suite only: what deploy/temporal-setup.sh ran with (runClusterSetup). */
    clusterSetupEnv?: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const [cluster, bundle, cli] = await Promise.all([startTemporalCluster(), writeWorkflowBundle(), ensureTemporalCli()]);
  const { destroy: _destroy, ...postgres } = cluster.postgres;
  project.provide('temporalAddress', cluster.address);
  project.provide('temporalNamespace', cluster.namespace);
  project.provide('temporalCliPath', cli.path);
  project.provide('workflowBundlePath', bundle.bundlePath);
  project.provide('clusterPostgres', postgres);
  project.provide('clusterSetupEnv', cluster.setupEnv);
  console.log(`[cluster-setup] Temporal on PostgreSQL at ${cluster.address}, ready in ${Math.round((Date.now() - started) / 1000)}s`);
  return async () => {
    await cluster.stop();
    bundle.remove();
  };
}
