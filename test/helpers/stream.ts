/** Reading a run's Workflow Stream as a watcher does, for assertions. */
import { WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter, type ApplicationFailure } from '@temporalio/common';
import { WorkflowStreamClient } from '@temporalio/workflow-streams/client';
import { decodePayloadWire } from '@temporalio/workflow-streams/workflow';
import type { TokenEvent } from '../../src/schemas/token-event.js';
import { runStreamItemsQuery } from '../../src/contract/messages.js';

/** The library's poll update, which watchers send. */
export const POLL = '__temporal_workflow_stream_poll';

/** The failure type of a poll the run refused (`StreamBusy`, `InvalidStreamPoll`); a poll it took fails the test. */
export async function pollRefusal(handle: WorkflowHandle, input: unknown): Promise<string | undefined> {
  const err = await handle.executeUpdate(POLL, { args: [input as never] }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof WorkflowUpdateFailedError)) throw new Error(`the poll was not refused: ${String(err)}`);
  return (err.cause as ApplicationFailure).type ?? undefined;
}

export interface ReceivedToken extends TokenEvent {
  offset: number;
  /** performance.now() when the subscriber got it. */
  receivedAt: number;
}

/**
 * Every token event of a run: subscribed while it runs, then, once it has closed, what came after the last poll
 * (runStreamItemsQuery). `onFirst` runs when the first arrives, before the next poll (to look at the run then).
 */
export async function readTokens(client: Client, workflowId: string, onFirst?: () => Promise<void>): Promise<ReceivedToken[]> {
  const received: ReceivedToken[] = [];
  const add = (data: TokenEvent, offset: number) => {
    received.push({ ...data, offset, receivedAt: performance.now() });
    return received.length === 1 ? onFirst?.() : undefined;
  };
  const tokens = WorkflowStreamClient.create(client, workflowId).topic<TokenEvent>('tokens');
  for await (const item of tokens.subscribe(0, { pollCooldown: 20 })) await add(item.data, item.offset);
  for (let more = true; more;) {
    const from = (received.at(-1)?.offset ?? -1) + 1;
    const tail = await client.workflow.getHandle(workflowId).query(runStreamItemsQuery, { topics: ['tokens'], from_offset: from });
    for (const item of tail.items) await add(defaultPayloadConverter.fromPayload<TokenEvent>(decodePayloadWire(item.data)), item.offset);
    more = tail.more_ready;
  }
  return received;
}

/** The text of one attempt of one step, in order. */
export function textOf(tokens: TokenEvent[], step: number, attempt: number): string {
  return tokens
    .filter((t) => t.step === step && t.attempt === attempt)
    .sort((a, b) => a.seq - b.seq)
    .map((t) => t.text)
    .join('');
}

/** Whether the run's model call is running now. */
export async function modelCallRunning(handle: WorkflowHandle): Promise<boolean> {
  const { raw } = await handle.describe();
  return (raw.pendingActivities ?? []).some((a) => a.activityType?.name === 'callModel');
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** History events of the run's stream: publish signals, accepted polls, and workflow task failures. */
export async function streamHistory(
  handle: WorkflowHandle,
): Promise<{ publishes: HistoryEvent[]; polls: HistoryEvent[]; taskFailures: HistoryEvent[] }> {
  const events = (await handle.fetchHistory()).events ?? [];
  return {
    publishes: events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === '__temporal_workflow_stream_publish'),
    polls: events.filter(
      (e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === '__temporal_workflow_stream_poll',
    ),
    taskFailures: events.filter((e) => e.workflowTaskFailedEventAttributes),
  };
}
