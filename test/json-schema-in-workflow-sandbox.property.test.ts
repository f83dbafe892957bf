/**
 * MCP tools' arguments are checked against their JSON Schemas in workflow code, with @cfworker/json-schema. Inside
 * the real sandbox (the production bundle options, a real worker) the check must decide, and word its problems,
 * exactly as in plain Node, for the schema features MCP servers use, on generated values: valid-looking objects,
 * near misses and arbitrary JSON. Both ways runs check now (`bounded`, patch set 29 on, whose counters read the
 * value through a proxy, and `linear`, patch set 28), which must also agree on what is valid.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkJsonSchema, type SchemaCheckMode } from '../src/tools/json-schema-check.js';
import { JSON_SCHEMA_CASES } from './fixtures/json-schema/schemas.js';
import type { jsonSchemaChecksWorkflow } from './fixtures/json-schema/workflows.js';
import { bundleEntry } from './helpers/bundle-variant.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { uniqueName } from './helpers/temporal.js';

const RUNS = Number(process.env.HITL_JSON_SCHEMA_PROPERTY_RUNS ?? 25);

let h: Harness;
let bundlePath: string;
beforeAll(async () => {
  bundlePath = await bundleEntry('test/fixtures/json-schema-workflows.ts');
  h = await startHarness({ script: { conversations: [] }, bundlePath });
});
afterAll(async () => {
  await h?.close();
  if (bundlePath) rmSync(path.dirname(bundlePath), { recursive: true, force: true });
});

const scalar = fc.oneof(
  fc.constantFrom('AB12', 'ab12', '2026-01-02T03:04:05Z', 'not a date', 'a@b.co', 'https://x.org/p', '::', 'file', 'x'),
  fc.uuid(),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -3, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  fc.dictionary(
    fc.constantFrom(
      'items',
      'pair',
      'when',
      'email',
      'uri',
      'id',
      'code',
      'mode',
      'k',
      'x-flag',
      'v',
      'w',
      'n',
      'kind',
      'path',
      'start',
      'end',
      'other',
    ),
    fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.array(fc.record({ id: scalar }), { maxLength: 4 })),
    { maxKeys: 5 },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

describe('JSON Schema checks in the workflow sandbox', () => {
  it('decide and word every problem exactly as plain Node does', { timeout: 300_000 }, async () => {
    const names = Object.keys(JSON_SCHEMA_CASES);
    let accepted = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: names.length * 4, maxLength: names.length * 4 }), async (values) => {
        const cases = values.map((v, i) => ({
          schema: names[i % names.length]!,
          value: JSON.parse(JSON.stringify(v)) as unknown,
          mode: (Math.floor(i / names.length) % 2 === 0 ? 'bounded' : 'linear') as SchemaCheckMode,
        }));
        const expected = cases.map((c) => checkJsonSchema(JSON_SCHEMA_CASES[c.schema]!, c.value, { mode: c.mode }));
        for (const c of cases) {
          const other = c.mode === 'bounded' ? 'linear' : 'bounded';
          expect(checkJsonSchema(JSON_SCHEMA_CASES[c.schema]!, c.value, { mode: other }).ok).toBe(
            checkJsonSchema(JSON_SCHEMA_CASES[c.schema]!, c.value, { mode: c.mode }).ok,
          );
        }
        const actual = await h.temporal.client.workflow.execute<typeof jsonSchemaChecksWorkflow>('jsonSchemaChecksWorkflow', {
          args: [cases],
          taskQueue: h.taskQueue,
          workflowId: uniqueName('json-schema'),
          workflowRunTimeout: '45s',
        });
        expect(actual).toEqual(expected);
        for (const outcome of expected) outcome.ok ? accepted++ : rejected++;
      }),
      { numRuns: RUNS },
    );
    // Both outcomes were exercised.
    expect(accepted).toBeGreaterThan(20);
    expect(rejected).toBeGreaterThan(20);
  });
});
