import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The Temporal worker is a native addon: separate processes, not threads.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          // Pure functions (policy, hashing, schemas, request checks): fast, no server.
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/static/**/*.test.ts'],
          // They share 2 cores with the integration suite; the determinism check parses every workflow module and
          // has taken 7 s on a loaded machine, against vitest's 5 s default.
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          // test/cluster runs only against the PostgreSQL cluster (vitest.cluster.config.ts, npm run test:cluster).
          exclude: ['test/static/**', 'test/bench.test.ts', 'test/cluster/**'],
          // One dev server and one workflow bundle for the suite; each file has its own task queue and model server.
          globalSetup: ['test/setup/global-setup.ts'],
          setupFiles: ['test/setup/quiet-runtime.ts'],
          // An upper bound for a test that hangs, not a speed target: on 2 shared cores under load (a load average
          // of 12 to 16 was seen), CLI processes take 5 s to start and runs many seconds to finish.
          testTimeout: 180_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          // The quick benchmark starts its own servers and workers and saturates both cores: it runs alone, after
          // the others, so it neither slows their workflow tasks past their timeouts nor is slowed by them.
          name: 'bench',
          include: ['test/bench.test.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
