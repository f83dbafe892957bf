import { z } from 'zod';

/** One run in a list, from visibility alone (no query to the worker). */
export const RunSummary = z.object({
  runId: z.string(),
  agent: z.string().optional(),
  /** `HitlStatus`, or Temporal's own status for runs that never set it. */
  status: z.string(),
  pendingCount: z.number().int(),
  pendingTools: z.array(z.string()),
  nextDeadline: z.iso.datetime().optional(),
  startTime: z.iso.datetime(),
  closeTime: z.iso.datetime().optional(),
  prompt: z.string().optional(),
  requestedBy: z.string().optional(),
});

export type RunSummary = z.infer<typeof RunSummary>;
