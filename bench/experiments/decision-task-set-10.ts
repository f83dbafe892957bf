/**
 * Experiment only (never deployed): the decision's workflow task as of patch set 10, before patch toolWakesListings.
 * The task starts the timer that bounds how long lists lag behind the decision, and the call's coroutine awaits the
 * consent check and the decision's answer on its way to the tool. The benchmark bundles the real agent workflow with
 * this module in place of src/workflows/patches.ts, so the same run measures what that patch bought a decision.
 */
import { PATCHES, takesPatch as takesEveryPatch, type PatchId } from '../../src/workflows/patches.js';

export * from '../../src/workflows/patches.js';

/** Every patch the run takes, except toolWakesListings. */
export function takesPatch(id: PatchId): boolean {
  return id !== PATCHES.toolWakesListings && takesEveryPatch(id);
}
