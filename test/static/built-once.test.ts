/**
 * The workflow bundle's schemas are built once per worker (src/schemas/built-once.ts). Two mistakes would undo that
 * quietly: a key used twice (the second definition would get the first one's schema) and a new schema defined the
 * plain way in a module the workflows import (built again for every run and every rebuild of an evicted run). And
 * sharing a schema must not share what its parses return: zod hands out a `.default()` or `.catch()` value as given
 * (a default shallowly copied), so an object in one would pass from run to run. All three are checked here;
 * test/built-once.test.ts shows the sharing at run time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

  it('hand out defaults and fallbacks that share nothing between parses', async () => {
    const { files: workflowFiles } = checkWorkflowDeterminism(process.cwd());
    // zod itself (zod-per-worker.ts) is kept beside the schemas, but it is no schema, and only the bundle can load it.
    const shared = workflowFiles.filter(
      (file) => readFileSync(file, 'utf8').includes('= builtOnce(') && !file.endsWith('zod-per-worker.ts'),
    );
    const roots = (await Promise.all(shared.map((file) => import(pathToFileURL(path.resolve(file)).href)))).flatMap((m) =>
      Object.values(m as Record<string, unknown>),
    );
    const nodes = new Set<object>();
    const walk = (value: unknown): void => {
      if (!value || (typeof value !== 'object' && typeof value !== 'function') || nodes.has(value)) return;
      nodes.add(value);
      const zod = (value as { _zod?: { def?: Record<string, unknown> } })._zod;
      if (zod?.def) {
        for (const [key, member] of Object.entries(zod.def)) if (key !== 'defaultValue') walk(member);
        if (zod.def.type === 'lazy') walk((zod.def.getter as () => unknown)());
      } else if (typeof value === 'object') for (const member of Object.values(value)) walk(member);
    };
    roots.forEach(walk);
    const reachable = (value: unknown, into = new Set<object>()): Set<object> => {
      if (value && typeof value === 'object' && !into.has(value)) {
        into.add(value);
        for (const member of Object.values(value)) reachable(member, into);
      }
      return into;
    };
    const handedOut = [...nodes].flatMap((node) => {
      const def = (node as { _zod?: { def?: { type?: string; defaultValue?: unknown; catchValue?: (ctx: unknown) => unknown } } })._zod
        ?.def;
      if (def?.type === 'default' || def?.type === 'prefault') return [() => def.defaultValue];
      if (def?.type === 'catch') return [() => def.catchValue!({ error: { issues: [] }, input: undefined, value: undefined })];
      return [];
    });
    expect(handedOut.length).toBeGreaterThan(20);
    for (const value of handedOut) {
      const [first, second] = [reachable(value()), reachable(value())];
      expect([...first].filter((object) => second.has(object))).toEqual([]);
    }
  });
});
