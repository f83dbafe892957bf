/**
 * Experiment only (never deployed): no bound on how long lists may lag behind a decision. The decision's workflow task
 * starts no timer, and the listings wait for the run's next step, however long the tool runs. The benchmark bundles
 * the real agent workflow with this module in place of src/workflows/listings-lag.ts, so the same run measures what
 * the one-second bound costs a decision.
 */
export const LISTINGS_LAG_MS: number | undefined = undefined;
