import { truncateBytes } from '../bounds/truncate.js';

/**
 * A summary the Temporal UI shows for an activity, a timer or a child workflow, which quotes names from outside (an
 * approver list, a reviewer's or a model's name, a workflow id of up to 1,000 bytes). The server takes at most 400
 * bytes of one as a payload (`limit.userMetadataSummarySize`), and a command it refuses fails the workflow task that
 * sends it, on every retry: cut to 200 bytes of text, with a marker.
 */
export function summaryText(text: string): string {
  return truncateBytes(text, 200);
}
