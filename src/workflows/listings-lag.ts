/**
 * How long lists may lag behind a decision whose tool is still running (run-visibility.ts, deferListings): the tool's
 * activity wakes the run this long after it starts (src/activities/listings-wake.ts), or, in runs from before patch
 * toolWakesListings, a timer of this length started in the decision's workflow task does, and the listings go out if
 * the tool has not answered by then. Visibility stores lag a moment anyway (Elasticsearch makes a write searchable
 * within a second). Undefined would mean no bound: lists wait for the tool's result.
 */
export const LISTINGS_LAG_MS: number | undefined = 1000;
