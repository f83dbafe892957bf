/**
 * The bundle every worker runs (built by bundleWorkflows in the global setup) preloads the globals the sandbox
 * lacks, and only those: zod stays a module of each run (src/workflow-bundle.ts says why), in the one build of zod
 * the workflows import. test/zod-in-workflow-sandbox.property.test.ts shows what both mean at run time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

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

  it('bundles the ES build of zod the workflows import, and no CommonJS copy', () => {
    expect(code).toContain('node_modules/zod/v4/classic/schemas.js');
    expect(code).not.toMatch(/node_modules\/zod\/[\w/.-]*\.cjs/);
  });
});
