/** What the API refuses and says about its tokens and its address at start, before it serves anything. */
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HitlClient } from '../client/hitl-client.js';
import { readEnvConfig } from '../config.js';
import { hostNotes, isLoopback } from './api-start-checks.js';
import { startApiServer } from './serve.js';

/** Enough of a client for the API to be built and to listen; nothing here calls Temporal. */
const hitl = { temporal: { options: { namespace: 'default' } } } as unknown as HitlClient;
const TOKEN = 'tok-0123456789abcdef';

async function started(env: Record<string, string>): Promise<string[]> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const api = await startApiServer(readEnvConfig({ HITL_API_PORT: '0', ...env }), { hitl });
  await api.close();
  const lines = warn.mock.calls.map((args) => String(args[0]));
  warn.mockRestore();
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('API tokens at start', () => {
  it('refuses a token no Authorization header can carry, naming its entry and never the token', async () => {
    for (const bad of [`${TOKEN}\nsecond-line`, `${TOKEN} with-space`, `${TOKEN}é`, `${TOKEN}\u200b`]) {
      const tokens = JSON.stringify({ [TOKEN]: { approver: 'ann' }, [bad]: { approver: 'bob' } });
      const error = await startApiServer(readEnvConfig({ HITL_API_TOKENS: tokens }), { hitl }).then(
        () => undefined,
        (err: unknown) => err as Error,
      );
      expect(error?.message).toMatch(/^Invalid HITL_API_TOKENS: the token of entry 2 \(approver "bob"\) holds a space, a line break/);
      expect(error?.message).not.toContain(TOKEN);
    }
  });

  it('refuses to start with no tokens, as nothing else opens the API', async () => {
    for (const env of [{}, { HITL_API_TOKENS: '{}' }]) {
      await expect(startApiServer(readEnvConfig(env), { hitl })).rejects.toThrow(
        /^HITL_API_TOKENS holds no tokens, so every \/api call \(the inbox's among them\) would be answered 401\. Set HITL_API_TOKENS/,
      );
    }
  });

  it('with no tokens but an anonymous codec, starts and warns that only /codec and health answer', async () => {
    const lines = await started({ HITL_CODEC_ALLOW_ANONYMOUS: 'true' });
    expect(lines).toEqual([expect.stringMatching(/^Warning: HITL_API_TOKENS holds no tokens, .*; only \/codec/)]);
  });
});

describe('the address the API listens on', () => {
  const tokens = JSON.stringify({ [TOKEN]: { approver: 'ann' } });

  it('says nothing on loopback, the default', async () => {
    expect(await started({ HITL_API_TOKENS: tokens, HITL_CODEC_ALLOW_ANONYMOUS: 'true' })).toEqual([]);
  });

  it('says when it listens on all interfaces, and warns when /codec answers anyone there', async () => {
    const lines = await started({ HITL_API_TOKENS: tokens, HITL_API_HOST: '0.0.0.0', HITL_CODEC_ALLOW_ANONYMOUS: 'true' });
    expect(lines).toEqual([
      expect.stringMatching(
        /^The API listens on all interfaces \(HITL_API_HOST=0\.0\.0\.0\): other machines reach it .* not only at http:\/\/127\.0\.0\.1:\d+\.$/,
      ),
      expect.stringMatching(/^Warning: HITL_CODEC_ALLOW_ANONYMOUS=true with HITL_API_HOST=0\.0\.0\.0: \/codec answers without a token/),
    ]);
    expect(await started({ HITL_API_TOKENS: tokens, HITL_API_HOST: '0.0.0.0' })).toHaveLength(1);
  });

  const ipv6 = Object.values(networkInterfaces()).some((addresses) => addresses?.some((a) => a.address === '::1'));
  it.skipIf(!ipv6)('names a URL that opens for IPv6 hosts, in brackets', async () => {
    const lines = await started({ HITL_API_TOKENS: tokens, HITL_API_HOST: '::' });
    expect(lines).toEqual([
      expect.stringMatching(/^The API listens on all interfaces \(HITL_API_HOST=::\): .* not only at http:\/\/\[::1\]:\d+\.$/),
    ]);
    const url = /(http:\/\/\S+)\.$/.exec(lines[0]!)![1]!;
    expect(url).toMatch(/^http:\/\/\[::1\]:\d+$/);
  });

  it('warns for any host other machines reach, not only all interfaces', () => {
    const config = { HITL_API_HOST: '10.0.0.5', HITL_CODEC_ALLOW_ANONYMOUS: true };
    expect(hostNotes(config, 'http://10.0.0.5:8787')).toEqual([
      expect.stringMatching(/^Warning: HITL_CODEC_ALLOW_ANONYMOUS=true with HITL_API_HOST=10\.0\.0\.5/),
    ]);
    for (const host of ['127.0.0.1', '127.0.1.1', 'localhost', '::1']) expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'api.example.com', '127.0.0.1.example.com'])
      expect(isLoopback(host), host).toBe(false);
  });
});
