/**
 * Pending calls as a query lists them, within what its answer may hold. Sub-agents' calls all wait at the top-level
 * run as well: 32 sub-agents with 32 calls each, each call with its arguments, its approvers' text and what its
 * precheck saw, made an answer past what the server passes, and every list of that run failed while they waited.
 */
import { jsonPrefixLength } from '../bounds/json-prefix.js';
import { truncateBytes, utf8Length } from '../bounds/truncate.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { listedApproval } from './listed-approval.js';

/** What a call keeps of its arguments, its text and its world when a list cuts it shorter (`shortened`). */
export const SHORTENED_BYTES = 512;

/**
 * Every call as lists show them (`listedApproval`) while the list fits in `budgetBytes` of JSON; else every call
 * `shortened`; else the first that fit so, and `more` (the `pendingApproval` query has each call whole).
 */
export function listedWithin(pending: readonly PendingApproval[], budgetBytes: number): { listed: PendingApproval[]; more: boolean } {
  const listed = pending.map(listedApproval);
  if (jsonPrefixLength(listed, budgetBytes) === listed.length) return { listed, more: false };
  const short = listed.map(shortened);
  const fit = jsonPrefixLength(short, budgetBytes);
  return { listed: short.slice(0, fit), more: fit < short.length };
}

/** A call with its arguments, its approvers' text and its precheck's world each cut to SHORTENED_BYTES. */
function shortened(p: PendingApproval): PendingApproval {
  const args = JSON.stringify(p.args);
  const world = p.world === undefined ? undefined : JSON.stringify(p.world);
  return {
    ...p,
    ...(utf8Length(args) > SHORTENED_BYTES && { args: { preview: truncateBytes(args, SHORTENED_BYTES) }, argsTruncated: true }),
    description: truncateBytes(p.description, SHORTENED_BYTES),
    ...(world !== undefined && utf8Length(world) > SHORTENED_BYTES && { world: { preview: truncateBytes(world, SHORTENED_BYTES) } }),
    shortened: true,
  };
}
