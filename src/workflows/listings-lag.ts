/**
 * How long lists may lag behind a decision whose tool is still running (run-visibility.ts, deferListings): a timer
 * of this length, started in the decision's workflow task, releases the listings if the tool has not answered by
 * then. Visibility stores lag a moment anyway (Elasticsearch makes a write searchable within a second). A module of
 * its own so the benchmark can measure what the bound costs a decision (bench/experiments/listings-without-lag-bound.ts,
 * where it is undefined: no timer, and lists wait for the tool's result).
 */
export const LISTINGS_LAG_MS: number | undefined = 1000;
