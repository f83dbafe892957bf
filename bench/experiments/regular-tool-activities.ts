/**
 * Experiment only (never deployed): the agent workflow as it was before `local: true`, every tool call a regular
 * activity. The benchmark bundles the real agent workflow with this module in place of
 * src/workflows/activity-options.ts, so the same run measures what local tools buy.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../src/activities/index.js';
import { ACTIVITY_OPTIONS } from '../../src/workflows/activity-options.js';

export * from '../../src/workflows/activity-options.js';

/** Local tool calls go through the regular proxy; each call's options still come from its spec. */
export const localActivities = proxyActivities<Activities>(ACTIVITY_OPTIONS.tool);
