/** Reading a run's history and waiting for a condition, for assertions. */
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { inject } from 'vitest';

type Payload = Parameters<typeof defaultPayloadConverter.fromPayload>[0];

/**
 * The summaries of activities, in order (what the Temporal UI shows): scheduled ones, and local ones (a marker
 * each) that carry a summary, as tools do.
 */
export async function activitySummaries(handle: WorkflowHandle): Promise<string[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events
    .filter((e) => e.activityTaskScheduledEventAttributes || (isLocalActivityMarker(e) && e.userMetadata?.summary))
    .map((e) => (e.userMetadata?.summary ? String(defaultPayloadConverter.fromPayload(e.userMetadata.summary as Payload)) : ''));
}

/** The summaries of local activities alone. */
export async function localActivitySummaries(handle: WorkflowHandle): Promise<string[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events
    .filter((e) => isLocalActivityMarker(e) && e.userMetadata?.summary)
    .map((e) => String(defaultPayloadConverter.fromPayload(e.userMetadata!.summary as Payload)));
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

function isLocalActivityMarker(e: HistoryEvent): boolean {
  return e.markerRecordedEventAttributes?.markerName === 'core_local_activity';
}

type StartedAttributes = NonNullable<HistoryEvent['workflowExecutionStartedEventAttributes']>;

/** How the run started: its input, as the workflow got it, and the rest of its first event (its chain, attempt…). */
export async function startOf<Input = Record<string, unknown>>(
  handle: WorkflowHandle,
): Promise<{ input: Input; started: StartedAttributes }> {
  const started = (await handle.fetchHistory()).events![0]!.workflowExecutionStartedEventAttributes!;
  return { input: defaultPayloadConverter.fromPayload(started.input!.payloads![0]! as Payload) as Input, started };
}

/** Timer summaries, in order. */
export async function timerSummaries(handle: WorkflowHandle): Promise<string[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events
    .filter((e) => e.timerStartedEventAttributes)
    .map((e) => (e.userMetadata?.summary ? String(defaultPayloadConverter.fromPayload(e.userMetadata.summary as Payload)) : ''));
}

/** Polls `check` until it holds. The default leaves room for a loaded, shared machine; a test that passes never waits it out. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
  what = 'condition',
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // Not ready yet (e.g. the run has not started); try again.
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs}ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Replays a history on the suite's prebuilt bundle, as a worker does for an evicted run or a query on a closed one. */
export function replayOnSuiteBundle(history: Parameters<typeof Worker.runReplayHistory>[1], workflowId: string, replayName: string) {
  return Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, replayName }, history, workflowId);
}
