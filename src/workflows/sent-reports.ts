/**
 * The digests of the reports a sub-agent sent its parent lately (patch reportsConfirmed), so that it can vouch for
 * them when the parent asks (src/contract/sent-report-query.ts). A few dozen: a parent asks within milliseconds of
 * each report, in the order they came. Not carried across continue-as-new: the new run reports afresh.
 */
import { reportDigest, type SentReport } from '../contract/sent-report-query.js';

const KEPT = 64;

export class SentReports {
  readonly #digests = new Map<number, string>();

  sent(seq: number, report: unknown): void {
    this.#digests.set(seq, reportDigest(report));
    // A Map keeps insertion order, and numbers only grow: the first key is the oldest.
    if (this.#digests.size > KEPT) this.#digests.delete(this.#digests.keys().next().value!);
  }

  /** The digest of the report sent as `seq`; null for one never sent, or no longer kept. */
  digestOf(seq: unknown): SentReport {
    return typeof seq === 'number' ? (this.#digests.get(seq) ?? null) : null;
  }
}
