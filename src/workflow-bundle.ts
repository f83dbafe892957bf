/** How the workflow code is bundled, in one place for the worker, the tests and the benchmark. */
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions } from '@temporalio/worker';

export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));

/**
 * The SDK runs every workflow in one reusable V8 context, but each run gets its own instance of every module the
 * bundle imports, except these: they are evaluated once, frozen and shared by all runs. zod is by far the largest
 * library the workflows import and keeps no per-run state; our schema modules stay per run, because zod fills in
 * parts of a schema lazily, which a frozen schema would refuse. The saving per cached run is measured by the
 * memory-per-cached-run experiment (bench/RESULTS.md).
 */
export const PRELOADED_MODULES = [fileURLToPath(new URL('./workflows/shared-libraries.ts', import.meta.url))];

export function bundleWorkflows(options: Omit<BundleOptions, 'workflowsPath'> = {}) {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, preloadModules: PRELOADED_MODULES, ...options });
}
