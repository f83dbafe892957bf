import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the approval-gate tests, the reliability suite, the two-worker fault and density test and
 * `npm run bench:cluster-density` at a small size, against a real Temporal cluster on PostgreSQL
 * (test/setup/cluster-setup.ts) instead of the dev server. CI runs it after `npm test` (.ci/run); it needs
 * PostgreSQL's server programs and builds the Temporal server once.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    include: [
      'test/approval-decisions.test.ts',
      'test/approval-timeouts.test.ts',
      'test/reliability/**/*.test.ts',
      'test/cluster/**/*.test.ts',
    ],
    globalSetup: ['test/setup/cluster-setup.ts'],
    setupFiles: ['test/setup/quiet-runtime.ts'],
    // The Temporal worker is a native addon: separate processes, not threads.
    pool: 'forks',
    // One file at a time: the fault tests crash PostgreSQL under the one server every file uses.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
