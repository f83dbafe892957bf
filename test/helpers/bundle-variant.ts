/** Builds variants of the workflow bundle with the production options: "the old code", or extra test workflows. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BundleOptions } from '@temporalio/worker';
import { bundleWorkflows } from '../../src/workflow-bundle.js';

// webpack is the bundler the Temporal worker ships with; take it from there rather than adding a second copy.
const webpack = createRequire(createRequire(import.meta.url).resolve('@temporalio/worker'))('webpack') as {
  NormalModuleReplacementPlugin: new (pattern: RegExp, replacement: string) => unknown;
};

const quietLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => console.error(m) };

async function bundleToFile(options: Partial<BundleOptions>): Promise<string> {
  const { code } = await bundleWorkflows({ logger: quietLogger, ...options });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-variant-')), 'workflows.js');
  writeFileSync(file, code);
  return file;
}

/** The production bundle with modules replaced: each `[request, replacement file]` (requests as the importers spell them). */
export function bundleWithReplacements(...replacements: [request: RegExp, replacement: string][]): Promise<string> {
  const plugins = replacements.map(
    ([request, replacement]) => new webpack.NormalModuleReplacementPlugin(request, path.resolve(replacement)),
  );
  return bundleToFile({ webpackConfigHook: (config) => ({ ...config, plugins: [...(config.plugins ?? []), ...(plugins as never[])] }) });
}

export function bundleWithReplacement(request: RegExp, replacement: string): Promise<string> {
  return bundleWithReplacements([request, replacement]);
}

/** The production bundle (preloaded modules and all) of another entry, e.g. one that adds test workflows. */
export function bundleEntry(workflowsPath: string): Promise<string> {
  return bundleToFile({ workflowsPath: path.resolve(workflowsPath) });
}

/** The production bundle with more workflow interceptor modules, after its own. */
export function bundleWithInterceptors(...modules: string[]): Promise<string> {
  return bundleToFile({ workflowInterceptorModules: modules.map((m) => path.resolve(m)) });
}
