import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestMatch, matchesPattern, MCP_SERVER_NAME, mcpServerOf } from './tool-names.js';

describe('tool name patterns', () => {
  it('`*` stands for any run of characters, every other character for itself', () => {
    expect(matchesPattern('fs__*', 'fs__read_file')).toBe(true);
    expect(matchesPattern('fs__*', 'fs__')).toBe(true);
    expect(matchesPattern('fs__*', 'gs__read')).toBe(false);
    expect(matchesPattern('*__delete*', 'git__delete_branch')).toBe(true);
    expect(matchesPattern('a*b*a', 'aba')).toBe(true);
    expect(matchesPattern('a*b*a', 'ab')).toBe(false);
    expect(matchesPattern('read_?', 'read_x')).toBe(false);
    expect(matchesPattern('exact', 'exact')).toBe(true);
  });

  it('agrees with an anchored regular expression on any pattern and name', () => {
    const text = fc.stringMatching(/^[ab_*]{0,8}$/);
    fc.assert(
      fc.property(text, fc.stringMatching(/^[ab_]{0,10}$/), (pattern, name) => {
        const regex = new RegExp(`^${pattern.split('*').join('.*')}$`);
        expect(matchesPattern(pattern, name)).toBe(regex.test(name));
      }),
    );
  });

  it('the best match is the name itself, else the pattern with the most literal characters, ties by code point', () => {
    expect(bestMatch(['fs__*', 'fs__read_*', 'fs__read_file'], 'fs__read_file')).toBe('fs__read_file');
    expect(bestMatch(['fs__*', 'fs__read_*'], 'fs__read_file')).toBe('fs__read_*');
    expect(bestMatch(['*_file', 'fs__*'], 'fs__x_file')).toBe('*_file');
    expect(bestMatch(['fs__*', '*_file'], 'fs__x_file')).toBe('*_file');
    expect(bestMatch(['fs__*'], 'git__x')).toBeUndefined();
  });

  it('MCP names split at the first `__`; server names cannot hold one', () => {
    expect(mcpServerOf('fs__read__twice')).toBe('fs');
    expect(mcpServerOf('read_data')).toBeUndefined();
    expect(['fs', 'my-fs', 'my_fs', 'a1'].every((n) => MCP_SERVER_NAME.test(n))).toBe(true);
    expect(['a__b', 'fs_', '_fs', '', 'a.b'].some((n) => MCP_SERVER_NAME.test(n))).toBe(false);
  });
});
