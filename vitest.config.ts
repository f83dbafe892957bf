import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    setupFiles: ['test/setup/quiet-runtime.ts'],
    // The Temporal worker is a native addon: separate processes, not threads.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests share one dev server; each file uses its own task queue and scripted model server.
    sequence: { hooks: 'list' },
  },
});
