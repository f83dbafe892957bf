/**
 * The workflow bundle's schemas are built once per worker (src/schemas/built-once.ts). Two mistakes would undo that
 * quietly: a key used twice (the second definition would get the first one's schema) and a new schema defined the
 * plain way in a module the workflows import (built again for every run and every rebuild of an evicted run). Both
 * are checked here; test/built-once.test.ts shows the sharing at run time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWorkflowDeterminism } from '../../src/dev/determinism-check.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** Each `const Name = builtOnce('key', …)` of a file: the name and the key. */
function builtOnceUses(file: string): { name: string; key: string }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/const (\w+)(?::[^=]+)? = builtOnce\(\s*'([^']+)'/g)].map(([, name, key]) => ({ name: name!, key: key! }));
}

describe('schemas built once', () => {
  const files = sourceFiles('src');

  it('are keyed by their module and name, each key once', () => {
    const uses = files.flatMap((file) => builtOnceUses(file).map((use) => ({ ...use, file })));
    expect(uses.length).toBeGreaterThan(100);
    for (const { file, name, key } of uses) {
      expect(key, file).toBe(`${path.relative('src', file).replace(/\.ts$/, '')}.${name}`);
    }
    // Every call names its key where the pattern above can read it.
    const calls = files.reduce((n, file) => n + (readFileSync(file, 'utf8').match(/= builtOnce\(/g)?.length ?? 0), 0);
    expect(uses).toHaveLength(calls);
    const keys = uses.map((use) => use.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('cover every top-level schema of the modules the workflows import', () => {
    const { files: workflowFiles } = checkWorkflowDeterminism(process.cwd());
    expect(workflowFiles).toContain('src/schemas/decision.ts');
    const plain = workflowFiles.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^(?:export )?const (\w+)(?::[^=]+)? = (?:z(?:\.|\s*$)|define(?:Agent)?Tool\()/gm)].map(
        ([, name]) => `${file}: ${name}`,
      ),
    );
    expect(plain).toEqual([]);
  });
});
