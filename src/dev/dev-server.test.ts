/**
 * startDevServer's checks of its options, before it looks for a CLI or a server: the CLI lookup is stubbed to fail
 * loudly, so a check that let the options through fails the test at once rather than starting a server.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDevServer } from './dev-server.js';

vi.mock('./temporal-cli.js', () => ({
  ensureTemporalCli: () => Promise.reject(new Error('the options were let through to the CLI lookup')),
}));

afterEach(() => vi.unstubAllEnvs());

describe('startDevServer', () => {
  it.each(['', '127.0.0.1:7233'])('refuses sqlitePragmas without a dbFile (TEMPORAL_ADDRESS=%j)', async (address) => {
    vi.stubEnv('TEMPORAL_ADDRESS', address);
    await expect(startDevServer({ sqlitePragmas: { synchronous: 'off' } })).rejects.toThrow('sqlitePragmas needs a dbFile');
  });
});
