/**
 * One status vocabulary for a run, in one casing: the workflow's own state, the `HitlStatus` search attribute,
 * results, the CLI, the HTTP API and the inbox all speak it. `runStatusOf` is the one mapping from what Temporal
 * reports about an execution.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';

export const RUN_STATUSES = [
  'Running',
  'AwaitingApproval',
  'AwaitingMessage',
  'Completed',
  'MaxSteps',
  'Ended',
  'Stopped',
  'Failed',
  'Canceled',
  'Terminated',
  'TimedOut',
] as const;
export const RunStatus = builtOnce('contract/run-status.RunStatus', () => z.enum(RUN_STATUSES));
export type RunStatus = z.infer<typeof RunStatus>;

/**
 * How a run that finished on its own ended: it answered, it ran out of steps, its session was closed, or it was
 * stopped (by an afterModel hook, or a human rejecting a breakpoint before the model).
 */
export const RUN_OUTCOMES = ['Completed', 'MaxSteps', 'Ended', 'Stopped'] as const satisfies readonly RunStatus[];
export const RunOutcome = builtOnce('contract/run-status.RunOutcome', () => z.enum(RUN_OUTCOMES));
export type RunOutcome = z.infer<typeof RunOutcome>;

export const OPEN_STATUSES: ReadonlySet<RunStatus> = new Set(['Running', 'AwaitingApproval', 'AwaitingMessage']);
export const isClosed = (status: RunStatus): boolean => !OPEN_STATUSES.has(status);

/** Temporal's `WorkflowExecutionStatus` names, as the TypeScript client reports them (`info.status.name`). */
const CLOSED_BY_TEMPORAL: Record<string, RunStatus> = {
  FAILED: 'Failed',
  CANCELLED: 'Canceled',
  TERMINATED: 'Terminated',
  TIMED_OUT: 'TimedOut',
};

/**
 * A run's status from visibility: what the run last said (`HitlStatus`) while it is open or completed, and what
 * Temporal says when the run could not say it itself (terminated, timed out, or a run that never set it). A
 * continued-as-new execution is not a run of its own: its workflow id's current execution is, so it maps to
 * undefined and lists leave it out.
 */
export function runStatusOf(hitlStatus: string | undefined, executionStatus: string): RunStatus | undefined {
  if (executionStatus === 'CONTINUED_AS_NEW') return undefined;
  const said = RunStatus.safeParse(hitlStatus);
  if (executionStatus === 'RUNNING') return said.success && OPEN_STATUSES.has(said.data) ? said.data : 'Running';
  if (executionStatus === 'COMPLETED') return said.success && RunOutcome.safeParse(said.data).success ? said.data : 'Completed';
  return CLOSED_BY_TEMPORAL[executionStatus] ?? (said.success ? said.data : 'Failed');
}

/** A visibility query clause for runs in one status (the current executions only). */
export function statusClause(status: RunStatus): string {
  const byTemporal = Object.entries(CLOSED_BY_TEMPORAL).find(([, s]) => s === status)?.[0];
  if (byTemporal) return `ExecutionStatus = '${toVisibilityStatus(byTemporal)}'`;
  return `HitlStatus = '${status}' AND ExecutionStatus = '${OPEN_STATUSES.has(status) ? 'Running' : 'Completed'}'`;
}

/** Visibility queries spell execution statuses in PascalCase (`TimedOut`), the client in SCREAMING_CASE. */
function toVisibilityStatus(name: string): string {
  return name === 'CANCELLED' ? 'Canceled' : name.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}
