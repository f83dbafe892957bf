/**
 * The floor: the least a Temporal round trip can cost on this server, bundled separately from the agent
 * workflow. Nothing here validates or keeps a transcript, and only the floor that pauses like ours publishes search
 * attributes (to say what of the gap to the bare floor is the events a pause writes).
 */
import {
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  proxyActivities,
  setHandler,
  sleep,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { HitlNextDeadline, HitlPendingCount, HitlPendingTools, HitlStatus } from '../../src/contract/search-attributes.js';
import type { FloorActivities } from './activities.js';

const { floorTool, floorNext, floorStep } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1m' });

export const floorDecideUpdate = defineUpdate<{ ok: true }, [unknown]>('decide');
export const floorDecisionSignal = defineSignal<[unknown]>('decision');
export const floorReadyQuery = defineQuery<boolean>('ready');

/**
 * Answers the ready query and takes a decision by update or signal; returns whether one came. Synchronous, so the
 * floor's decision wakes no more code than an inline handler would.
 */
function decisionHandlers(): () => boolean {
  let decided = false;
  setHandler(floorReadyQuery, () => true);
  setHandler(floorDecideUpdate, () => {
    decided = true;
    return { ok: true as const };
  });
  setHandler(floorDecisionSignal, () => {
    decided = true;
  });
  return () => decided;
}

/**
 * Waits for a decision (update or signal), runs one activity (the "tool"), then starts the next one (the analog
 * of the next model call): the same span the decision-latency benchmark measures on the agent workflow.
 */
export async function floorDecisionWorkflow(): Promise<string> {
  await condition(decisionHandlers());
  await floorTool();
  return floorNext();
}

/**
 * The floor, pausing as the agent workflow pauses: the workflow task that starts its wait also writes what ours writes
 * there (src/workflows/run-visibility.ts, approval-gate.ts), the search attributes and a memo of about the size of
 * ours for one pending call, and starts a deadline timer that nothing cancels before the tool starts. The decision's
 * workflow task carries those events to the worker, for both; the bare floor's carries none. So this floor tells
 * what of the gap to the bare floor is the events a pause writes, and what is our code (bench/RESULTS.md, section 1;
 * `npm run bench:decision -- --floor-paused-like-ours`).
 */
export async function floorPausedLikeOursWorkflow(): Promise<string> {
  const decided = decisionHandlers();
  const deadline = new Date(workflowInfo().runStartTime.getTime() + WEEK_MS);
  upsertSearchAttributes([
    { key: HitlPendingTools, value: ['write_file'] },
    { key: HitlPendingCount, value: 1 },
    { key: HitlStatus, value: 'AwaitingApproval' },
    { key: HitlNextDeadline, value: deadline },
  ]);
  upsertMemo({ pendingApprovals: [{ ...PENDING_LIKE_OURS, deadline: deadline.toISOString() }] });
  // Ours cancels its deadline timer in the step after the tool's, not in the decision's task: this one stays pending.
  void sleep(WEEK_MS);
  await condition(decided);
  await floorTool();
  return floorNext();
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** One pending call as ours lists it in its memo (src/schemas/pending-approval.ts), for the bench agent's write_file. */
const PENDING_LIKE_OURS = {
  id: 'call-1',
  toolName: 'write_file',
  args: { path: 'bench.txt', content: 'approved' },
  argsHash: `sha256:${'0'.repeat(64)}`,
  description: 'Tool execution requires approval\n\nTool: write_file\nArgs: {\n  "path": "bench.txt",\n  "content": "approved"\n}',
  allowedDecisions: ['approve', 'edit', 'reject', 'respond', 'ignore'],
  step: 1,
  onTimeout: 'reject',
  rule: 'tools.write_file: true',
  checks: 5,
  agent: 'bench',
};

/** `steps` × two trivial activities in sequence: the floor of an automatic agent step (model call + tool). */
export async function floorStepsWorkflow(steps: number): Promise<number> {
  for (let i = 0; i < steps; i++) {
    await floorStep('model');
    await floorStep('tool');
  }
  return steps;
}
