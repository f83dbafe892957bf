import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tokensFromEnv } from './api/api-tokens.js';
import { keyRingFromEnv } from './codec/encryption-keys.js';
import { readEnvConfig } from './config.js';
import { parseJsonSetting } from './json-setting.js';

const KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7 + 1)).toString('base64');
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
    // A brace in the wrong place puts the second token inside the first identity: named, and cut, as unrecognized.
    const misshaped = '{"s3cr3t-T0KEN-aaaaaaaaaaaa": {"approver": "alice", "s3cr3t-T0KEN-bbbbbbbbbbbb": {"approver": "bob"}}}';
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: misshaped })))).toBe(
      'Invalid HITL_API_TOKENS:\n✖ Unrecognized key: "s3cr…"\n  → at ["s3cr…"]',
    );
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
    // One that cannot be read names the setting too, whether it is missing or a directory.
    const dir = path.dirname(file);
    expect(errorOf(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS_FILE: `${dir}/none.json` })))).toBe(
      `Invalid HITL_ENCRYPTION_KEYS_FILE (${dir}/none.json): cannot read it (ENOENT)`,
    );
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS_FILE: dir })))).toBe(
      `Invalid HITL_API_TOKENS_FILE (${dir}): cannot read it (EISDIR)`,
    );
    // Unset, or set to nothing (a compose file's ${VAR} with VAR unset): off. A key id with no keys is a mistake.
    expect(keyRingFromEnv(readEnvConfig({}))).toBeUndefined();
    expect(errorOf(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEY_ID: 'k1' })))).toBe(
      'HITL_ENCRYPTION_KEY_ID is set, but no keys are: set HITL_ENCRYPTION_KEYS or HITL_ENCRYPTION_KEYS_FILE.',
    );
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

  it('take an encryption key only as strict base64 of 32 bytes that are not one byte repeated', () => {
    const ring = (keys: Record<string, string>, id?: string) =>
      keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: JSON.stringify(keys), ...(id && { HITL_ENCRYPTION_KEY_ID: id }) }));
    expect(ring({ k1: KEY })?.keys.get('k1')?.toString('base64')).toBe(KEY);
    for (const bad of ['correcthorsebatterystaplecorrecthorsebatter', `${KEY.slice(0, 20)}!!!***${KEY.slice(20)}`, KEY.replace('=', '')]) {
      expect(errorOf(() => ring({ k1: bad }))).toMatch(/each key must be 32 random bytes, base64-encoded/);
    }
    expect(errorOf(() => ring({ k1: Buffer.alloc(32).toString('base64') }))).toMatch(/this one is one byte repeated/);
    // A key id is the ring's own: not a method every object has, nor a prototype.
    expect(errorOf(() => ring({ k1: KEY }, 'toString'))).toMatch(/^Set HITL_ENCRYPTION_KEY_ID to the key that encrypts new payloads/);
    expect(errorOf(() => keyRingFromEnv(readEnvConfig({ HITL_ENCRYPTION_KEYS: `{"__proto__": "${KEY}", "k1": "${KEY}"}` })))).toBe(
      'Invalid HITL_ENCRYPTION_KEYS: it has a key named __proto__ (at __proto__), which cannot be read the same way everywhere',
    );
    expect(errorOf(() => tokensFromEnv(readEnvConfig({ HITL_API_TOKENS: '{"tok-0123456789abcdef": {"__proto__": {}}}' })))).toBe(
      'Invalid HITL_API_TOKENS: it has a key named __proto__, which cannot be read the same way everywhere',
    );
  });
});
