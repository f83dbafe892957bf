/**
 * Experiment only (never deployed): the agent workflow as it was before its decision's workflow task started the
 * tool first, with the search-attribute and memo upserts and the cancelled deadline timer in that task. The benchmark
 * bundles the real agent workflow with this module in place of src/workflows/patches.ts, so the same run measures
 * what moving them to the run's next step bought (run-visibility.ts, deferListings).
 */
import { PATCHES, takesPatch as takesEveryPatch, type PatchId } from '../../src/workflows/patches.js';

export * from '../../src/workflows/patches.js';

/** Every patch the run takes, except the one that defers the listings. */
export function takesPatch(id: PatchId): boolean {
  return id !== PATCHES.toolFirst && takesEveryPatch(id);
}
