import { z } from 'zod';
import { RunStatus } from '../contract/run-status.js';
import { RetryingActivity } from './retrying-activity.js';
import { RunProblem } from './run-problem.js';

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
  /** When the run began: its first execution, across continue-as-new (Temporal's own StartTime is the current one's). */
  startTime: z.iso.datetime(),
  closeTime: z.iso.datetime().optional(),
  prompt: z.string().optional(),
  requestedBy: z.string().optional(),
});

export type RunSummary = z.infer<typeof RunSummary>;

/**
 * A run as `hitl runs` and GET /api/runs list it: its summary and, for an open run, what Temporal says of its health
 * that the run cannot say itself (why it is stuck; what it keeps retrying).
 */
export const ListedRun = RunSummary.extend({
  problem: RunProblem.optional(),
  retrying: z.array(RetryingActivity).optional(),
});

export type ListedRun = z.infer<typeof ListedRun>;
