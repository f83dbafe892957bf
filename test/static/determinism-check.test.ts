/**
 * The determinism check (src/dev/determinism-check.ts) on small workflow modules written for each rule: what it
 * must report, and what it must let through, since `npm test` fails on any finding.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWorkflowDeterminism } from '../../src/dev/determinism-check.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** The messages the check reports for a workflow entry `entry.ts` with `code`, plus any other modules given. */
function findings(code: string, modules: Record<string, string> = {}): string[] {
  root = mkdtempSync(path.join(tmpdir(), 'determinism-'));
  for (const [name, text] of Object.entries({ 'entry.ts': code, ...modules })) writeFileSync(path.join(root, name), text);
  return checkWorkflowDeterminism(root, ['entry.ts']).findings.map((f) => `${f.line}: ${f.message}`);
}

describe('determinism check', () => {
  it('lets a workflow module that uses only allowed packages and its own modules through, and follows them', () => {
    expect(
      findings(`import { z } from 'zod';\nimport { helper } from './helper.js';\nexport const s = z.string().describe('a');\n`, {
        'helper.ts': `export const helper = () => Date.now();\n`,
      }),
    ).toEqual(['1: Date.now(): use workflowNow() from workflow-clock.ts']);
  });

  it('takes require of a literal as the import webpack bundles it as, and refuses any other require', () => {
    expect(findings(`export const z = require('zod/index.cjs').z;\n`)).toEqual([]);
    expect(findings(`export const fs = require('node:fs');\n`)).toEqual([
      '1: imports the Node module "node:fs": I/O belongs in activities',
    ]);
    expect(findings(`export const pad = require('left-pad');\n`)).toEqual([
      '1: imports "left-pad", which is not on the list of packages known to be deterministic (src/dev/determinism-check.ts)',
    ]);
    expect(findings(`const name = 'zod';\nexport const z = require(name);\n`)).toEqual([
      '2: uses the global "require": use static imports',
    ]);
    expect(findings(`export const r = require;\n`)).toEqual(['1: uses the global "require": use static imports']);
    expect(findings(`export const h = require('./helper.js');\n`, { 'helper.ts': `export const now = Math.random();\n` })).toEqual([
      '1: Math.random(): use uuid4() or a seeded choice from the workflow input',
    ]);
  });

  it("takes only `z` from 'zod', the one name the worker's one zod exports, and no subpath of it", () => {
    const refused = [expect.stringMatching(/^1: workflow code imports only `\{ z \}` from 'zod'/)];
    expect(
      findings(
        `import { z, type ZodType } from 'zod';\nimport type { ZodError } from 'zod';\nexport type T = ZodType | ZodError;\nexport const s = z.string();\n`,
      ),
    ).toEqual([]);
    expect(findings(`import { z, ZodError } from 'zod';\nexport const e = [z.string(), ZodError];\n`)).toEqual(refused);
    expect(findings(`import * as zod from 'zod';\nexport const s = zod.z.string();\n`)).toEqual(refused);
    expect(findings(`import z from 'zod';\nexport const s = z.string();\n`)).toEqual(refused);
    expect(findings(`import { z } from 'zod/v4';\nexport const s = z.string();\n`)).toEqual(refused);
    expect(findings(`export { z } from 'zod';\n`)).toEqual(refused);
  });

  it("refuses changes to zod's global state and to prototypes, which every later run of the worker would see", () => {
    const zod = `import { z } from 'zod';\n`;
    expect(findings(`${zod}z.config(z.locales.de());\n`)).toEqual([expect.stringMatching(/^2: z\.config\(\): /)]);
    expect(findings(`${zod}export const s = z.string().meta({ id: 'Name' });\n`)).toEqual([expect.stringMatching(/^2: \.meta\(…\) puts/)]);
    expect(findings(`${zod}z.string().register(z.globalRegistry, { id: 'x' });\n`)).toEqual([
      expect.stringMatching(/^2: zod's global registry is shared/),
    ]);
    expect(findings(`${zod}(z.ZodType.prototype as any).probe = 1;\n`)).toEqual([expect.stringMatching(/^2: changes a prototype/)]);
    expect(findings(`Array.prototype.last = function () {};\ndelete Object.prototype.x;\n`)).toHaveLength(2);
    // Through a computed key that names them, or a built-in that changes its first argument.
    expect(findings(`${zod}z['config']({});\nexport const s = z.string()[\`meta\`]({ id: 'Name' });\n`)).toEqual([
      expect.stringMatching(/^2: z\.config\(\): /),
      expect.stringMatching(/^3: \.meta\(…\) puts/),
    ]);
    expect(
      findings(
        `Object.defineProperty(Array.prototype, 'last', { value: 1 });\nReflect.set(String['prototype'], 'x', 1);\nObject.getPrototypeOf([]).last = 1;\nx.__proto__.y = 1;\n`,
      ),
    ).toEqual([1, 2, 3, 4].map((line) => expect.stringMatching(new RegExp(`^${line}: changes a prototype`))));
    // Nor taken as a value, which an alias or a callee could change out of sight; read through or compared, it may be.
    const asValue = (line: number) => expect.stringMatching(new RegExp(`^${line}: takes a prototype as a value`));
    expect(
      findings(
        `const p = Array.prototype;\np.last = 1;\nexport const copy = Object.assign({}, Map.prototype);\nexport const q = Object.getPrototypeOf([]);\nexport const r = ({}).__proto__;\n`,
      ),
    ).toEqual([asValue(1), asValue(3), asValue(4), asValue(5)]);
    expect(
      findings(`export const plain = (v: object) => Object.getPrototypeOf(v) === Object.prototype || Array.prototype.slice.call([1]);\n`),
    ).toEqual([]);
    expect(findings(`${zod}const meta = z.string().meta;\nexport const s = meta.call(z.string(), { id: 'Name' });\n`)).toEqual([
      expect.stringMatching(/^2: \.meta\(…\) puts/),
    ]);
    // Reading is fine: a schema's metadata, a prototype's method, a registry of the run's own.
    expect(
      findings(`${zod}const s = z.string().describe('a');\nexport const m = [s.meta(), Array.prototype.slice.call([1]), z.registry()];\n`),
    ).toEqual([]);
  });

  it('takes `z` only as `z.<name>` or in a type, so no alias or computed key walks around the checks above', () => {
    const zod = `import { z } from 'zod';\n`;
    const refused = (line: number) => expect.stringMatching(new RegExp(`^${line}: uses \`z\` other than as \`z\\.<name>\``));
    expect(findings(`${zod}const zz = z;\nzz.config({});\n`)).toEqual([refused(2)]);
    expect(findings(`${zod}const key = 'config';\nz[key]({});\n`)).toEqual([refused(3)]);
    expect(findings(`${zod}const { config } = z;\nconfig({});\n`)).toEqual([refused(2)]);
    expect(findings(`${zod}const use = (zod: unknown) => zod;\nuse(z);\n`)).toEqual([refused(3)]);
    expect(
      findings(
        `${zod}export const s = z.object({ a: z.string() });\nexport type S = z.infer<typeof s>;\nexport const t: typeof z.string = z.string;\nexport const u = z?.number();\n`,
      ),
    ).toEqual([]);
  });
});
