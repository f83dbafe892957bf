/**
 * Experiment only (never deployed): the agent workflow as it was before `local: true`, every tool call a regular
 * activity. The benchmark bundles the real agent workflow with this module in place of
 * src/workflows/activities.ts, so the same run measures what local tools buy.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../src/activities/index.js';

export * from '../../src/workflows/activities.js';

/** The regular tool proxy's defaults; each call's options still come from its spec. */
export const localToolActivities = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { maximumAttempts: 3 },
});
