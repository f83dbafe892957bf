import { z } from 'zod';
import { AuditEntry } from './audit-entry.js';

/** Where one approval stands, waiting or not (src/client/approval-status.ts). */
export const ApprovalStatus = z.object({
  workflowId: z.string(),
  callId: z.string(),
  /**
   * `waiting`; `decided` or `timed_out` (`decision` says how: its audit entry); `waits_again` under `waitsAs` (its world
   * changed, its consent lapsed, or an edit proposed it to other approvers); `unsettled` when its run ended while it
   * waited.
   */
  status: z.enum(['waiting', 'decided', 'timed_out', 'waits_again', 'unsettled']),
  decision: AuditEntry.optional(),
  waitsAs: z.string().optional(),
});

export type ApprovalStatus = z.infer<typeof ApprovalStatus>;
