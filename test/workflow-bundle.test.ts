/**
 * The bundle every worker runs (built by bundleWorkflows in the global setup) loads zod once per worker: the
 * preload step really requires it, and there is only the one build of zod the workflows import. The memory this
 * saves per cached run is measured by the bench's memory-per-cached-run experiment.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

describe('workflow bundle', () => {
  it('preloads the zod build the workflows import, so every run shares one instance of it', () => {
    const code = readFileSync(inject('workflowBundlePath'), 'utf8');
    const preload = code.slice(code.indexOf('function preloadModules() {'), code.indexOf('exports.importWorkflows'));
    expect(preload).toContain('__webpack_require__(');
    expect(preload).toContain('./src/workflows/shared-libraries.ts');
    expect(code).toContain('node_modules/zod/v4/classic/schemas.js');
    expect(code).not.toMatch(/node_modules\/zod\/[\w/.-]*\.cjs/);
  });
});
