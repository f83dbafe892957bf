/**
 * The bundle every worker runs (built by bundleWorkflows in the global setup) preloads the globals the sandbox
 * lacks and the cache of what is built once per worker, neither of which pulls in zod: zod is not frozen, but kept
 * in that cache, one zod per worker, in the one build of zod the workflows get (src/schemas/zod-per-worker.ts).
 * test/zod-in-workflow-sandbox.property.test.ts and test/built-once.test.ts show what that means at run time.
 *
 * It also holds exactly one copy of each Temporal SDK package. `@temporalio/workflow-streams` pins its SDK
 * dependencies at an older exact version; without the `overrides` in package.json npm nests those copies under
 * it, and the bundle then carries two `@temporalio/workflow` modules with separate state (the stream's handlers
 * would register on an activator the worker never drives).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

/**
 * Where each bundled package was loaded from: `node_modules/a/node_modules/@temporalio/x` is a second copy of x.
 * A module is named by its id (`"./node_modules/…"`), or, once concatenated into another, by a `;// ./node_modules/…`
 * line at its start.
 */
function packageCopies(code: string, scope: string): Map<string, Set<string>> {
  const copies = new Map<string, Set<string>>();
  for (const [, modulePath] of code.matchAll(/(?:"|^;\/\/ )\.\/((?:node_modules\/(?:@[\w.-]+\/)?[\w.-]+\/)+)[^"\n]*/gm)) {
    const root = modulePath!.replace(/\/$/, '');
    const name = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)$/.exec(root)![1]!;
    if (!name.startsWith(scope)) continue;
    copies.set(name, (copies.get(name) ?? new Set()).add(root));
  }
  return copies;
}

describe('workflow bundle', () => {
  const code = readFileSync(inject('workflowBundlePath'), 'utf8');

  it('preloads the sandbox globals module, which pulls in no zod', () => {
    const preload = code.slice(code.indexOf('function preloadModules() {'), code.indexOf('exports.importWorkflows'));
    expect(preload).toContain('__webpack_require__(');
    expect(preload).toContain('./src/workflows/sandbox-globals.ts');
    const globalsModule = code.slice(code.indexOf('/***/ "./src/workflows/sandbox-globals.ts"'));
    const globalsImports = globalsModule.slice(0, globalsModule.indexOf('/***/ }')).match(/__webpack_require__\(\/\*! [^*]+\*\//g);
    expect(globalsImports).toEqual(['__webpack_require__(/*! base-64 */']);
  });

  it('preloads the schema cache, which imports nothing, so zod is not preloaded with it', () => {
    const preload = code.slice(code.indexOf('function preloadModules() {'), code.indexOf('exports.importWorkflows'));
    expect(preload).toContain('./src/schemas/built-once.ts');
    const cacheModule = code.slice(code.indexOf('/***/ "./src/schemas/built-once.ts"'));
    expect(cacheModule.slice(0, cacheModule.indexOf('/***/ }'))).not.toContain('__webpack_require__(/*!');
  });

  it('registers the interceptors that read history figures for continue-as-new and run what a task leaves to the next', () => {
    const interceptors = code.slice(code.indexOf('function importInterceptors() {'));
    expect(interceptors.slice(0, interceptors.indexOf('}'))).toContain('./src/workflows/history-reading.ts');
    expect(interceptors.slice(0, interceptors.indexOf('}'))).toContain('./src/workflows/next-activation.ts');
  });

  it('concatenates our ES modules, so a run instantiates fewer of them', () => {
    expect(code).toMatch(/^;\/\/ \.\/src\/schemas\/decision\.ts$/m);
    expect(code).toMatch(/^;\/\/ \.\/src\/schemas\/zod-per-worker\.ts$/m);
  });

  it("bundles zod's CommonJS build only, evaluated where the worker's one zod is built", () => {
    expect(code).toContain('// MODULE: ./node_modules/zod/index.cjs');
    expect(code).toContain('"./node_modules/zod/v4/classic/schemas.cjs"');
    // No ES build of zod, which every run would instantiate anew.
    expect(code).not.toMatch(/node_modules\/zod\/[\w/.-]*\.js\b/);
    // zod's entry is called in one place: the builder of the worker's one zod.
    const [, entry] = /^var (\w+) = \/\*#__PURE__\*\/__webpack_require__\.\w+\(function\(__unused_webpack_module, exports\) \{$/m.exec(
      code.slice(code.indexOf('// MODULE: ./node_modules/zod/index.cjs')),
    )!;
    expect([...code.matchAll(new RegExp(`\\b${entry}\\(\\)`, 'g'))].map(([call]) => call)).toHaveLength(1);
    expect(code).toContain(`builtOnce)('schemas/zod-per-worker.z', ()=>(${entry}().z))`);
  });

  it("gives zod's modules the builtins as local bindings, after their 'use strict', and no other module", () => {
    const header = /^(?:\/\/ MODULE: |\/\*\*\*\/ ")\.\/node_modules\/zod\/[\w/.-]+\.cjs/gm;
    const modules = [...code.matchAll(header)].map((m) => code.slice(m.index, m.index + 1200));
    expect(modules.length).toBeGreaterThan(50);
    for (const text of modules) {
      const body = text.slice(text.indexOf('{\n') + 2).trimStart();
      // The directive (webpack drops it from a module it wraps in a namespace function) stays first: still strict.
      expect(body.replace(/^"use strict";\s*/, ''), text.slice(0, 80)).toMatch(
        /^var Object = globalThis\.Object, Array = globalThis\.Array, /,
      );
    }
    expect(code.split('var Object = globalThis.Object,').length - 1).toBe(modules.length);
  });

  it('holds one copy of each Temporal SDK package, workflow-streams included', () => {
    const copies = packageCopies(code, '@temporalio/');
    expect([...copies.keys()]).toEqual(
      expect.arrayContaining(['@temporalio/workflow', '@temporalio/common', '@temporalio/workflow-streams']),
    );
    const duplicated = [...copies].filter(([, roots]) => roots.size > 1).map(([name, roots]) => `${name}: ${[...roots].join(', ')}`);
    expect(duplicated).toEqual([]);
  });
});
