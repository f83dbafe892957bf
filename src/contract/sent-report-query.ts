/**
 * Internal to runs, not for clients: a parent asks a sub-agent whether it sent the report numbered `seq`
 * (`hitl.childApprovals`, src/workflows/sub-agent-report.ts). A signal does not say who sent it, and anyone who can
 * signal the parent can forge a report; the sub-agent itself is the one who can vouch for it.
 *
 * The answer: the digest of the report it sent under that number (`reportDigest`), null when it sent none (or so
 * long ago that it no longer keeps it), or `unconfirmable` when its run keeps no digests (started on a patch set
 * before patch reportsConfirmed).
 */
import { defineQuery } from '@temporalio/workflow';
import { canonicalSha256 } from '../policy/args-hash.js';

export type SentReport = string | null | 'unconfirmable';

export const sentReportQuery = defineQuery<SentReport, [number]>('hitl.sentReport');

/** A report's digest, over its canonical JSON: what the sub-agent sent and what its parent received compare equal. */
export function reportDigest(report: unknown): string {
  return canonicalSha256(report);
}
