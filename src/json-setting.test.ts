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
const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
};

describe('JSON settings', () => {
  it('name the setting when the text is not JSON, and say where without repeating it', () => {
    const secret = 'k1=s3cret-key-material';
    const message = errorOf(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: secret })));
    expect(message).toBe('Invalid HITL_ENCRYPTION_KEYS: not JSON');
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: "{'tok-secret-0123456789': 1}" })))).toBe(
      'Invalid HITL_API_TOKENS: not JSON (at position 1)',
    );
  });

  it("say why a record's key is refused, at that key", () => {
    // Misshaped, with the tokens one level down: still no token shown.
    const nested = '{"tokens": {"tok-shared-0123456789": {"approver": "ann"}, "tok-shared-0123456789": {"approver": "bob"}}}';
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: nested })))).toBe(
      'Invalid HITL_API_TOKENS: the key "tok-…" appears twice in one object (in toke…)',
    );
    expect(errorOf(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: JSON.stringify({ 'key one': KEY }) })))).toMatch(
      /^Invalid HITL_ENCRYPTION_KEYS:\n✖ Invalid string: must match pattern .+\n {2}→ at \["key one"\]$/,
    );
  });

  it('show only the first characters of an API token, which is the record key', () => {
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: '{"tok-alice": {"approver": "alice"}}' })))).toBe(
      'Invalid HITL_API_TOKENS:\n✖ tokens must be at least 16 characters\n  → at ["tok-…"]',
    );
    const message = errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: '{"a-token-long-enough": {"approver": ""}}' })));
    expect(message).toBe('Invalid HITL_API_TOKENS:\n✖ Too small: expected string to have >=1 characters\n  → at ["a-to…"].approver');
    expect(message).not.toContain('long-enough');
  });

  it('refuse a named file that is empty, rather than read it as unset', () => {
    // A secret mounted before it was written: encryption must not quietly turn off.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'hitl-setting-')), 'empty.json');
    writeFileSync(file, '');
    expect(errorOf(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS_FILE: file })))).toBe(
      `Invalid HITL_ENCRYPTION_KEYS_FILE (${file}): not JSON (it is empty)`,
    );
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS_FILE: file })))).toBe(
      `Invalid HITL_API_TOKENS_FILE (${file}): not JSON (it is empty)`,
    );
    // Unset, or set to nothing (a compose file's ${VAR} with VAR unset): off.
    expect(keyRingFromEnv(readEnvConfig({}))).toBeUndefined();
    expect(keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: '' }))).toBeUndefined();
    expect(tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: '' }))).toEqual({});
  });

  it('refuse a key named twice in one object, showing no more of a secret key than other errors do', () => {
    // A token copied for a second person: JSON.parse would keep only the last identity, and ann's token would be bob's.
    const copied = '{"tok-shared-0123456789": {"approver": "ann"}, "tok-shared-0123456789": {"approver": "bob"}}';
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: copied })))).toBe(
      'Invalid HITL_API_TOKENS: the key "tok-…" appears twice in one object',
    );
    const twiceInside = '{"a-token-long-enough": {"approver": "ann", "approver": "bob"}}';
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: twiceInside })))).toBe(
      'Invalid HITL_API_TOKENS: the key "appr…" appears twice in one object (in a-to…)',
    );
    expect(errorOf(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: `{"k1": "${KEY}", "k1": "${KEY}"}` })))).toBe(
      'Invalid HITL_ENCRYPTION_KEYS: the key "k1" appears twice in one object',
    );
  });

  it('return what the schema outputs', () => {
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
