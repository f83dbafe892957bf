import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tokensFromEnv } from './api/api-tokens.js';
import { keyRingFromEnv } from './codec/encryption-keys.js';
import { readEnvConfig } from './config.js';
import { parseJsonSetting } from './json-setting.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('JSON settings', () => {
  it('name the setting when the text is not JSON', () => {
    expect(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: "{'single': 'quotes'}" }))).toThrow(
      /^Invalid HITL_API_TOKENS: not JSON \(.+\)$/,
    );
    expect(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: 'k1=abc' }))).toThrow(/^Invalid HITL_ENCRYPTION_KEYS: not JSON/);
  });

  it('refuse a named file that is empty, rather than read it as unset', () => {
    // A secret mounted before it was written: encryption must not quietly turn off.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-setting-')), 'empty.json');
    writeFileSync(file, '');
    expect(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS_FILE: file }))).toThrow(
      `Invalid HITL_ENCRYPTION_KEYS_FILE (${file}): not JSON`,
    );
    expect(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS_FILE: file }))).toThrow(`Invalid HITL_API_TOKENS_FILE (${file}): not JSON`);
    // Unset, or set to nothing (a compose file's ${VAR} with VAR unset): off.
    expect(keyRingFromEnv(readEnvConfig({}))).toBeUndefined();
    expect(keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: '' }))).toBeUndefined();
    expect(tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: '' }))).toEqual({});
  });

  it("say why a record's key is refused, at that key", () => {
    expect(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: '{"tok-alice": {"approver": "alice"}}' }))).toThrow(
      'Invalid HITL_API_TOKENS:\n✖ tokens must be at least 16 characters\n  → at ["tok-alice"]',
    );
    expect(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: JSON.stringify({ 'key one': KEY }) }))).toThrow(
      /^Invalid HITL_ENCRYPTION_KEYS:\n✖ Invalid string: must match pattern .+\n {2}→ at \["key one"\]$/,
    );
  });

  it("keep zod's rendering of every other problem, and return what the schema outputs", () => {
    expect(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: '{"a-token-long-enough": {"approver": ""}}' }))).toThrow(
      /^Invalid HITL_API_TOKENS:\n✖ Too small: expected string to have >=1 characters\n {2}→ at \["a-token-long-enough"\]\.approver$/,
    );
    expect(tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: '{"a-token-long-enough": {"approver": "ann"}}' }))).toEqual({
      'a-token-long-enough': { approver: 'ann', groups: [] },
    });
    expect(keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: JSON.stringify({ k1: KEY }) }))?.currentId).toBe('k1');
    expect(
      parseJsonSetting(
        'N',
        '[1, 2]',
        z.array(z.number()).transform((a) => a.length),
      ),
    ).toBe(2);
  });
});
