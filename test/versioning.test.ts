/**
 * Changing workflow code while runs are paused (README, "Changing workflow code"): a run paused under the old
 * code finishes under the new code because the change is behind a patch (src/workflows/patches.ts); without the guard, the same change
 * breaks that run's replay.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { PATCH_SETS, PATCHES } from '../src/workflows/patches.js';
import { bundleWithReplacement, bundleWithReplacements } from './helpers/bundle-variant.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const THE_MODULE = /^\.\/approval-description\.js$/;
// The old code also predates patch sets (src/workflows/patches.ts): it asked each patch where it was needed.
const PATCHES_MODULE = /^\.\/patches\.js$/;

let h: Harness;
let oldCode: string;
let unguardedCode: string;
beforeAll(async () => {
  [oldCode, unguardedCode] = await Promise.all([
    bundleWithReplacements(
      [THE_MODULE, 'test/fixtures/versioning/before-tool-descriptions.ts'],
      [PATCHES_MODULE, 'test/fixtures/versioning/patches-before-sets.ts'],
    ),
    bundleWithReplacement(THE_MODULE, 'test/fixtures/versioning/unguarded-tool-descriptions.ts'),
  ]);
  h = await startHarness({
    recordAs: 'versioning',
    bundlePath: oldCode,
    script: {
      conversations: [
        {
          match: 'paused under the old code',
          replies: [{ toolCalls: [call('c1', 'cancel_order', { orderId: '1238' })] }, { content: 'old run done' }],
        },
        {
          match: 'started under the new code',
          replies: [{ toolCalls: [call('c2', 'cancel_order', { orderId: '1237' })] }, { content: 'new run done' }],
        },
      ],
    },
  });
}, 180_000);
afterAll(() => h?.close());

describe('changing workflow code while runs are paused', () => {
  it('a run paused under the old code finishes under the new code; new runs get the new behaviour', async () => {
    const old = await h.start({ agent: 'demo', prompt: 'paused under the old code' });
    const [pausedOld] = await waitForPending(old, 1);
    expect(pausedOld!.description).toBe('Tool execution requires approval\n\nTool: cancel_order\nArgs: {\n  "orderId": "1238"\n}');

    // Deploy: the worker now runs the current code.
    await h.restartWorker({ bundlePath: inject('workflowBundlePath') });
    expect(await waitForPending(old, 1)).toEqual([pausedOld]);
    await decide(old, { decisions: [{ id: 'call-1', type: 'approve' }] });
    expect(await old.result()).toMatchObject({ status: 'Completed', output: 'old run done' });
    expect(await activitySummaries(old)).not.toContain('describe cancel_order');

    const fresh = await h.start({ agent: 'demo', prompt: 'started under the new code' });
    const [pausedNew] = await waitForPending(fresh, 1);
    expect(pausedNew!.description).toBe(
      'Tool execution requires approval: Cancel order 1237 of Edsger Dijkstra (paid 15000, status open).',
    );
    const patchesOf = async (handle: typeof old) =>
      ((await handle.fetchHistory()).events ?? [])
        .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
        .map((e) => defaultPayloadConverter.fromPayload(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]! as never));
    // A new run takes every patch of its code through one marker; the old run recorded none for this change.
    const [newest] = PATCH_SETS;
    expect(newest!.patches).toContain(PATCHES.toolDescriptions);
    expect(await patchesOf(fresh)).toEqual([{ id: newest!.id, deprecated: false }]);
    expect(await patchesOf(old)).not.toContainEqual(expect.objectContaining({ id: PATCHES.toolDescriptions }));
    expect((await patchesOf(old)).filter((p) => (p as { id: string }).id.startsWith('patch-set-'))).toEqual([]);
    await decide(fresh, { decisions: [{ id: 'call-1', type: 'reject' }] });
    await fresh.result();

    // The same change without the patch cannot replay the old run.
    const history = await old.fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: { codePath: unguardedCode } }, history, old.workflowId)).rejects.toThrow(
      /[Nn]ondeterminism/,
    );
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, old.workflowId);
  });
});
