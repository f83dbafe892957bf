import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The Temporal worker is a native addon: separate processes, not threads.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        // Pure functions (policy, hashing, schemas, request checks): fast, no server.
        test: { name: 'unit', include: ['src/**/*.test.ts', 'test/static/**/*.test.ts'] },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/static/**'],
          // One dev server and one workflow bundle for the suite; each file has its own task queue and model server.
          globalSetup: ['test/setup/global-setup.ts'],
          setupFiles: ['test/setup/quiet-runtime.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
