/** Builds the workflow bundle with one module swapped for a fixture: "the old code" for versioning tests. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleWorkflows } from '../../src/workflow-bundle.js';

// webpack is the bundler the Temporal worker ships with; take it from there rather than adding a second copy.
const webpack = createRequire(createRequire(import.meta.url).resolve('@temporalio/worker'))('webpack') as {
  NormalModuleReplacementPlugin: new (pattern: RegExp, replacement: string) => unknown;
};

export async function bundleWithReplacement(request: RegExp, replacement: string): Promise<string> {
  const { code } = await bundleWorkflows({
    webpackConfigHook: (config) => ({
      ...config,
      plugins: [...(config.plugins ?? []), new webpack.NormalModuleReplacementPlugin(request, path.resolve(replacement)) as never],
    }),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => console.error(m) },
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-variant-')), 'workflows.js');
  writeFileSync(file, code);
  return file;
}
