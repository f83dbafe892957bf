import { z } from 'zod';
import { RunStatus } from '../contract/run-status.js';

/** One run in a list, from visibility alone (no query to the worker). */
export const RunSummary = z.object({
  workflowId: z.string(),
  /** Temporal's id of the current execution. */
  runId: z.string(),
  agent: z.string().optional(),
  status: RunStatus,
  pendingCount: z.number().int(),
  pendingTools: z.array(z.string()),
  nextDeadline: z.iso.datetime().optional(),
  startTime: z.iso.datetime(),
  closeTime: z.iso.datetime().optional(),
  prompt: z.string().optional(),
  requestedBy: z.string().optional(),
});

export type RunSummary = z.infer<typeof RunSummary>;
