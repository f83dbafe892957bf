/** Activity proxies with the options each kind of work needs. */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

/** Resolving the agent is local and quick; its result is recorded as a marker in history. */
export const { resolveAgent } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 3 },
});

/**
 * Model calls: transient API failures retry with backoff (a `retry-after` from the API overrides the interval);
 * a rejected request is non-retryable and fails the run.
 */
export const modelActivities = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 },
});

/** Defaults for tools; each tool's spec can override timeout, heartbeat and retry. */
export const toolActivities = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { maximumAttempts: 3 },
});

/** Tools whose spec says `local: true`: quick ones, run in the workflow's own worker (no heartbeats). */
export const localToolActivities = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { maximumAttempts: 3 },
});

/** Notifications retry for a while, then give up: a webhook outage must never hold up a run. */
export const notifyActivities = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: '10m',
  retry: { initialInterval: '2s', maximumAttempts: 6 },
});
