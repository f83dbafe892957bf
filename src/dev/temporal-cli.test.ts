/**
 * Which CLI carries the SQLite driver that reopens an interrupted connection (our build only), and where the SDK's
 * download of the stock release goes (not under our build's key, which names that driver).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedCliPath, cliCacheDir, sdkDownloadDir, TEMPORAL_CLI_VERSION, withoutSqliteFix } from './temporal-cli.js';

describe('withoutSqliteFix', () => {
  it.each(['cache', 'go-build'] as const)('says nothing for our build (%s)', (source) => {
    expect(withoutSqliteFix({ path: cachedCliPath(), source })).toBeUndefined();
  });

  it('says nothing for TEMPORAL_CLI_PATH set to our cached build', () => {
    expect(withoutSqliteFix({ path: cachedCliPath(), source: 'env' })).toBeUndefined();
  });

  it.each([
    ['env', 'TEMPORAL_CLI_PATH'],
    ['path', '`temporal` on PATH'],
    ['sdk-download', `download of stock v${TEMPORAL_CLI_VERSION}`],
  ] as const)('warns in one line, naming the source, for %s', (source, named) => {
    const cli = { path: path.join('elsewhere', 'temporal'), source };
    const warning = withoutSqliteFix(cli);
    expect(warning).toContain(named);
    expect(warning).toContain(cli.path);
    expect(warning).toContain('may wedge on an interrupted SQLite connection');
    expect(warning).not.toContain('\n');
  });
});

describe('sdkDownloadDir', () => {
  it('is keyed by the CLI version alone: the stock release lacks our SQLite driver', () => {
    expect(sdkDownloadDir()).toBe(path.join(cliCacheDir(TEMPORAL_CLI_VERSION), 'sdk-download'));
    expect(sdkDownloadDir()).not.toContain('sqlite');
  });
});
