/**
 * Safe deploys: every recorded history (test/histories/<set>/, recorded by `npm run record-histories -- <set>`)
 * replays with the current workflow code. A change that would break a paused run fails here first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { HISTORIES_DIR } from './helpers/harness.js';

export async function replayAll(bundlePath: string, files: string[]): Promise<ReplayResult[]> {
  // Recorded as {workflowId, history}; the first set holds bare histories (from runs that never derive ids).
  const histories = files.map((file) => {
    const json = JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8'));
    return json.history ? { workflowId: json.workflowId, history: json.history } : { workflowId: file, history: json };
  });
  const results: ReplayResult[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: { codePath: bundlePath }, replayName: 'replay-suite' },
    histories,
  )) {
    results.push(result);
  }
  return results;
}

describe('replay', () => {
  it('replays every recorded history without a determinism error', { timeout: 300_000 }, async () => {
    // Every set: each is what paused runs of some earlier code look like.
    const files = readdirSync(HISTORIES_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(18);
    const results = await replayAll(inject('workflowBundlePath'), files);
    expect(results).toHaveLength(files.length);
    expect(results.filter((r) => r.error).map((r) => `${r.workflowId}: ${r.error?.message}`)).toEqual([]);
    console.log(`replayed ${results.length} histories`);
  });
});
