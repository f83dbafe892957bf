import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWorkflowDeterminism } from './determinism-check.js';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'determinism-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('checkWorkflowDeterminism', () => {
  it('passes the real workflow code', () => {
    const { files, findings } = checkWorkflowDeterminism(process.cwd());
    expect(findings).toEqual([]);
    expect(files).toContain('src/workflows/agent-workflow.ts');
    expect(files).toContain('src/policy/conditions.ts');
    expect(files).toContain('src/workflows/sandbox-globals.ts');
  });

  it('finds each non-deterministic use, also in modules the workflow imports, and names the fix', () => {
    const root = tree({
      'src/workflows/index.ts': "export { loop } from './loop.js';\nimport type { Only } from '../types-only.js';\n",
      'src/workflows/loop.ts': [
        "import { helper } from '../helpers/helper.js';",
        "import { readFileSync } from 'node:fs';",
        "import OpenAI from 'openai';",
        'export async function loop() {',
        '  const started = Date.now();',
        '  const id = Math.random();',
        '  setTimeout(() => {}, 10);',
        '  const key = process.env.KEY;',
        '  const now = new Date();',
        '  const later = new Date(started);',
        '  return helper(started, id, key, now, later, readFileSync, OpenAI);',
        '}',
      ].join('\n'),
      'src/helpers/helper.ts': 'export function helper(...xs: unknown[]) { return fetch(String(xs)); }\n',
      'src/types-only.ts': "import { spawn } from 'node:child_process';\nexport type Only = typeof spawn;\n",
    });
    const { findings } = checkWorkflowDeterminism(root);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.message.split(':')[0]}`)).toEqual([
      'src/workflows/loop.ts:2 imports the Node module "node',
      'src/workflows/loop.ts:3 imports "openai", which is not on the list of packages known to be deterministic (src/dev/determinism-check.ts)',
      'src/workflows/loop.ts:5 Date.now()',
      'src/workflows/loop.ts:6 Math.random()',
      'src/workflows/loop.ts:7 uses the global "setTimeout"',
      'src/workflows/loop.ts:8 uses the global "process"',
      'src/workflows/loop.ts:9 reads the clock through Date',
      'src/helpers/helper.ts:1 uses the global "fetch"',
    ]);
  });

  it('lets locally bound names and the sanctioned clock file through', () => {
    const root = tree({
      'src/workflows/index.ts':
        "export { now } from './workflow-clock.js';\nexport const f = (process: number, fetch: () => void) => { fetch(); return process; };\n",
      'src/workflows/workflow-clock.ts': 'export const now = () => Date.now();\n',
    });
    expect(checkWorkflowDeterminism(root).findings).toEqual([]);
  });
});
