/**
 * A run's memo as lists read it (visibility alone, no query to the run). The run writes it (run-visibility.ts, and
 * continue-as-new.ts for the next run of its chain), but whoever starts a workflow sets its first memo, and a key the
 * run has no reason to write again stays as they set it. So every key is checked, and one that does not hold what
 * the run writes reads as absent: a list then asks the run itself, or shows less, rather than failing for everyone.
 */
import { z } from 'zod';
import { PendingApproval } from './pending-approval.js';

export const RunMemo = z.object({
  prompt: z.string().optional().catch(undefined),
  requestedBy: z.string().optional().catch(undefined),
  /** When the run's chain began (its first run's start), written since patch set 21. */
  startedAt: z.iso.datetime().optional().catch(undefined),
  /** What waits, as of the run's last change (absent for older runs; `{tooLarge: true}` when left out). */
  pendingApprovals: z
    .union([
      // Memos written before the rename name a sub-agent call's owner `workflowId`.
      z.array(PendingApproval.extend({ workflowId: z.string().optional() })),
      z.object({ tooLarge: z.literal(true) }),
    ])
    .optional()
    .catch(undefined),
});

export type RunMemo = z.infer<typeof RunMemo>;
