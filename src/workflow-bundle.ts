/** How the workflow code is bundled, in one place for the worker, the tests and the benchmark. */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions } from '@temporalio/worker';

export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));

/**
 * The workflow interceptors every agent bundle holds: updates refused while a local activity's result that came late
 * is applied (src/workflows/late-local-result.ts), the reading of history figures that continue-as-new decides from
 * (history-reading.ts), and the work a workflow task leaves to the next (next-activation.ts).
 */
const WORKFLOW_INTERCEPTOR_MODULES = [
  fileURLToPath(new URL('./workflows/late-local-result.ts', import.meta.url)),
  fileURLToPath(new URL('./workflows/history-reading.ts', import.meta.url)),
  fileURLToPath(new URL('./workflows/next-activation.ts', import.meta.url)),
];

/** The workflow interceptors of tracing (src/telemetry/tracing.ts): bundled only into a traced worker's workflows. */
export const TRACING_WORKFLOW_INTERCEPTOR_MODULES = [fileURLToPath(new URL('./workflows/tracing-interceptors.ts', import.meta.url))];

/**
 * The SDK runs every workflow in one reusable V8 context, but each run gets its own instance of every module the
 * bundle imports, except these: they are evaluated once, frozen and shared by all runs. Only the globals the sandbox
 * lacks, the stateless curves of the signature checks (preloaded-crypto.ts) and the cache of what is built once per
 * worker (schemas/built-once.ts) are preloaded. zod is not: frozen, its checks that reset a shared regex throw
 * (z.email() and most string formats) and z.config() throws. It is shared without being frozen instead, one zod per
 * worker kept in that cache (ZOD_PER_WORKER_ALIASES below), and so are our schemas (built-once.ts says how, why that is
 * safe, and what workflow code must therefore never do to zod). test/zod-in-workflow-sandbox.property.test.ts holds
 * every zod feature in the sandbox to plain Node's behaviour, run after run.
 */
export const PRELOADED_MODULES = [
  fileURLToPath(new URL('./workflows/sandbox-globals.ts', import.meta.url)),
  fileURLToPath(new URL('./workflows/preloaded-crypto.ts', import.meta.url)),
  fileURLToPath(new URL('./schemas/built-once.ts', import.meta.url)),
];

/**
 * The payload converter workflow code decodes with: Temporal's default, except that a payload it cannot decode is
 * refused as input instead of failing the workflow task (src/codec/payload-converter.ts). Every agent bundle holds it.
 */
const PAYLOAD_CONVERTER_PATH = fileURLToPath(new URL('./codec/payload-converter.ts', import.meta.url));

/**
 * One zod per worker (src/schemas/zod-per-worker.ts): workflow code's `import { z } from 'zod'` gets that module, which
 * requires zod's CommonJS build once per worker as 'zod/index.cjs'. Without these aliases, each run instantiates
 * zod's ES build (the bench's memory-per-cached-run experiment measures that bundle too).
 */
export const ZOD_PER_WORKER_ALIASES = {
  zod$: fileURLToPath(new URL('./schemas/zod-per-worker.ts', import.meta.url)),
  'zod/index.cjs$': createRequire(import.meta.url).resolve('zod'),
};

type WebpackConfig = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];
type Rule = { use?: { loader?: string; options?: { jsc?: { target?: string } } } };

/**
 * The SDK compiles workflow TypeScript with swc for ES2017, which rewrites the regex literals of ES2018: a unicode
 * property escape (/\p{Lu}/u) becomes a class of ranges from swc's Unicode tables, not V8's, so a zod `.regex()`
 * in workflow code could accept what the same check in Node rejects, and reports a different pattern. Node runs
 * ES2018 natively; nothing else in our code compiles differently for it.
 */
function compileForES2018(config: WebpackConfig): WebpackConfig {
  const rules = (config.module?.rules ?? []).map((rule) => {
    const { use } = rule as Rule;
    if (!use?.loader?.includes('swc-loader')) return rule;
    return { ...(rule as object), use: { ...use, options: { ...use.options, jsc: { ...use.options?.jsc, target: 'es2018' } } } };
  });
  return { ...config, module: { ...config.module, rules: rules as NonNullable<WebpackConfig['module']>['rules'] } };
}

/**
 * Every new run, and every run rebuilt from history once the worker let it go, instantiates each module of the
 * bundle anew (above). The SDK bundles in webpack's development mode, which wraps each ES module in a function of
 * its own with a getter per export; concatenated (scope hoisting, as in production mode), our modules become a few
 * functions, which a run instantiates sooner and keeps in less memory (memory-per-cached-run in bench/RESULTS.md).
 * The code is not minified: stack traces and source maps read as before. CommonJS modules (the SDK's, and the zod
 * the worker shares) stay as they are.
 */
function concatenateModules(config: WebpackConfig): WebpackConfig {
  return { ...config, optimization: { ...config.optimization, concatenateModules: true } };
}

const ZOD_DIR = path.dirname(createRequire(import.meta.url).resolve('zod/package.json'));
const LOCAL_BUILTINS_LOADER = fileURLToPath(new URL('./local-builtins-loader.cjs', import.meta.url));

function zodPerWorker(config: WebpackConfig): WebpackConfig {
  const alias = { ...(config.resolve?.alias as Record<string, string | false>), ...ZOD_PER_WORKER_ALIASES };
  // zod's CommonJS modules, which the worker's first run evaluates once: their lookups of builtins made local.
  const rule = { test: /\.cjs$/, include: ZOD_DIR, use: { loader: LOCAL_BUILTINS_LOADER } };
  const rules = [...(config.module?.rules ?? []), rule];
  return { ...config, resolve: { ...config.resolve, alias }, module: { ...config.module, rules } };
}

function workflowWebpackConfig(config: WebpackConfig): WebpackConfig {
  return zodPerWorker(concatenateModules(compileForES2018(config)));
}

/**
 * The production bundle, which the worker builds at start unless it is given one (src/worker.ts). Tests may bundle another entry (`workflowsPath`, @default WORKFLOWS_PATH), preload more,
 * add interceptors (after ours), or change the webpack config further (`webpackConfigHook` runs after ours).
 */
export function bundleWorkflows(options: Partial<BundleOptions> = {}) {
  const { webpackConfigHook = (config: WebpackConfig) => config, workflowInterceptorModules = [], ...rest } = options;
  return bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    payloadConverterPath: PAYLOAD_CONVERTER_PATH,
    preloadModules: PRELOADED_MODULES,
    ...rest,
    workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES, ...workflowInterceptorModules],
    webpackConfigHook: (config) => webpackConfigHook(workflowWebpackConfig(config)),
  });
}
