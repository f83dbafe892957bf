/**
 * Schemas are built once per worker, not once per run (src/schemas/built-once.ts): on one worker, the second and
 * later runs use the schemas the first run built, unfrozen, and they judge input exactly as the same schema does in
 * plain Node. The agent workflow's own tests exercise the shared schemas run after run; this one shows the sharing.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecideInput } from '../src/schemas/decision.js';
import type { BuiltOnceProbe } from './fixtures/built-once-workflows.js';
import { bundleEntry } from './helpers/bundle-variant.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { uniqueName } from './helpers/temporal.js';

let h: Harness;
let bundlePath: string;

beforeAll(async () => {
  bundlePath = await bundleEntry('test/fixtures/built-once-workflows.ts');
  h = await startHarness({ script: { conversations: [] }, bundlePath });
});
afterAll(async () => {
  await h?.close();
  if (bundlePath) rmSync(path.dirname(bundlePath), { recursive: true, force: true });
});

const probe = (input: unknown) =>
  h.temporal.client.workflow.execute('builtOnceProbeWorkflow', {
    args: [input],
    taskQueue: h.taskQueue,
    workflowId: uniqueName('built-once'),
    workflowRunTimeout: '45s',
  }) as Promise<BuiltOnceProbe>;

const nodeIssues = (input: unknown) => {
  const result = DecideInput.safeParse(input);
  return result.success ? [] : result.error.issues.map(({ path, message }) => ({ path, message }));
};

describe('schemas built once per worker', () => {
  it('are built by the first run and used, unfrozen, by every later run, judging input as plain Node does', async () => {
    const inputs: unknown[] = [
      { decisions: [{ type: 'approve', id: 'call-1' }] },
      { decisions: [{ type: 'edit', id: 'call-1' }] },
      { decisions: [], approver: '' },
      { decisions: [{ type: 'respond', always: true, extra: 1 }] },
      { decisions: [{ type: 'edit', args: { amount: 5 }, name: 'process_refund' }], groups: ['finance'] },
    ];
    const probes: BuiltOnceProbe[] = [];
    // One after another, so the first run has built the schemas before the next one starts.
    for (const input of inputs) probes.push(await probe(input));
    const first = probes[0]!;
    for (const [i, p] of probes.entries()) {
      expect(p.builtBy).toBe(first.builtBy);
      expect(p.sameSchema).toBe(true);
      expect(p.frozen).toBe(false);
      expect(p.issues).toEqual(nodeIssues(inputs[i]));
    }
    expect(probes.map((p) => p.issues.length > 0)).toEqual([false, true, true, true, false]);
  });
});
