/**
 * Experiment only (never deployed): the agent workflow without keeping what the outside sees current. The benchmark
 * bundles the real agent workflow with this module in place of src/workflows/run-visibility.ts, so the same run
 * measures what the search-attribute and memo upserts cost a decision.
 */
import { RunVisibility as PublishingVisibility, type VisibleRun } from '../../src/workflows/run-visibility.js';

export * from '../../src/workflows/run-visibility.js';

/** Publishes nothing: no search attributes, no pending list in the memo, no current details, no parent reports. */
export class RunVisibility extends PublishingVisibility {
  override publish(_run: VisibleRun): void {}
}
