/**
 * `Idempotency-Key` on decisions. The key becomes the `decide` update's id, so Temporal itself answers a retry with
 * the first attempt's outcome (the run's history keeps it) and a decision is never applied twice, with no store of
 * our own. The id also covers the caller, the run and the decision: one caller's key never answers for another's,
 * and the same key with a different body is decided as the new request it is (usually refused as already decided)
 * instead of being answered with the first body's result.
 */
import { canonicalSha256 } from '../policy/args-hash.js';
import type { DecideInput } from '../schemas/decision.js';

export function decisionUpdateId(key: string, workflowId: string, input: DecideInput): string {
  return `http-idempotency-${canonicalSha256({ key, workflowId, input })}`;
}
