import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { collectIdentities, parseIdentity, parseJson, parseJsonFile } from './option-values.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-option-values-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

describe('option values', () => {
  it('--args takes a JSON object only', () => {
    expect(parseJson('{"a": 1}')).toEqual({ a: 1 });
    for (const bad of ['{bad', '[1,2]', '"text"', 'null', '3'])
      expect(() => parseJson(bad)).toThrow(new InvalidArgumentError('expected a JSON object'));
  });

  it('--args-file takes a file holding a JSON object; any other file is a usage error, not a crash', () => {
    expect(parseJsonFile(file('ok.json', '{"path": "b.txt"}\n'))).toEqual({ path: 'b.txt' });
    for (const bad of [file('passwd', 'root:x:0:0:root:/root:/bin/bash\n'), file('array.json', '[1,2]'), file('empty.json', '')])
      expect(() => parseJsonFile(bad)).toThrow(new InvalidArgumentError('expected a file holding a JSON object'));
    expect(() => parseJsonFile(dir)).toThrow(InvalidArgumentError);
    expect(() => parseJsonFile(dir)).toThrow(/^cannot read the file \(EISDIR/);
    expect(() => parseJsonFile(path.join(dir, 'missing.json'))).toThrow(/^cannot read the file \(ENOENT/);
  });

  it('an identity is a name: empty, blank, padded or with control characters is refused', () => {
    expect(parseIdentity('alice')).toBe('alice');
    expect(parseIdentity('Alice Smith')).toBe('Alice Smith');
    for (const padded of [' alice ', 'alice ', 'ali\u0007ce'])
      expect(() => parseIdentity(padded)).toThrow(
        new InvalidArgumentError(
          'expected a name: a name is at most 200 characters, with no white space around it, no control or invisible characters, and no user: or group: prefix',
        ),
      );
    for (const blank of ['', ' ', '\t\n'])
      expect(() => parseIdentity(blank)).toThrow(new InvalidArgumentError('expected a name, not a blank one'));
    expect(collectIdentities('finance', collectIdentities('ops'))).toEqual(['ops', 'finance']);
    expect(() => collectIdentities(' ', ['ops'])).toThrow(InvalidArgumentError);
  });
});
