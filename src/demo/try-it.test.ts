import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tryItLines } from './try-it.js';

const API = 'http://127.0.0.1:8787';

describe('tryItLines', () => {
  it('says nothing of encryption when payloads are plain', () => {
    expect(tryItLines({ apiUrl: API }).join('\n')).not.toContain('ENCRYPTION');
  });

  it('with encryption, exports the keys file and key id the CLI needs, as shell words', () => {
    const lines = tryItLines({ apiUrl: API, encryption: { keysFile: "/keys/it's here.json", keyId: 'k2' } });
    expect(lines.slice(0, 2)).toEqual([`export HITL_ENCRYPTION_KEYS_FILE='/keys/it'\\''s here.json'`, 'export HITL_ENCRYPTION_KEY_ID=k2']);
    // The quoting holds in a real shell.
    expect(execFileSync('bash', ['-c', `${lines[0]}; printf %s "$HITL_ENCRYPTION_KEYS_FILE"`], { encoding: 'utf8' })).toBe(
      "/keys/it's here.json",
    );
  });

  it('with keys from the shell, names the setting in a comment and prints no key', () => {
    const [first] = tryItLines({ apiUrl: API, encryption: {} });
    expect(first).toMatch(/^# hitl reads encrypted runs only with the keys this npm start was given: export HITL_ENCRYPTION_KEYS=/);
    // A comment, so the lines still run as printed.
    expect(execFileSync('bash', ['-c', `${first}\nprintf %s "\${HITL_ENCRYPTION_KEYS-unset}"`], { encoding: 'utf8', env: {} })).toBe(
      'unset',
    );
  });
});
