/**
 * The one rule for what the client says of a run Temporal has closed, whatever a query answers. A closed run still
 * answers queries, from its last state by replay: a run terminated or timed out while it waited says it waits, with
 * its calls pending. Temporal's word on how it ended wins (`runStatusOf`), and a closed run waits for nothing; what
 * the run says of its messages and decisions stands, as its history. Watchers are told the end too, when the run
 * could not tell its stream itself, and may resume after that end as after any item they were given.
 */
import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import proto from '@temporalio/proto';
import { streamOffsetQuery } from '../contract/messages.js';
import { runStatusOf, type RunStatus } from '../contract/run-status.js';
import { StreamOffsetError } from './run-errors.js';
import type { RunEvent } from '../schemas/run-event.js';
import type { RunState } from '../schemas/run-state.js';

// @temporalio/proto is CommonJS: Node's ESM loader exposes it as a default export only.
const { HistoryEventFilterType } = proto.temporal.api.enums.v1;

/** How the run ended as Temporal has it (`said`: what the run itself says), or undefined while it is open. */
export function endedAs(description: WorkflowExecutionDescription, said?: RunStatus): RunStatus | undefined {
  const execution = description.status.name;
  // A continued-as-new execution is not the run: its workflow id's current execution is.
  if (execution === 'RUNNING' || execution === 'CONTINUED_AS_NEW') return undefined;
  return runStatusOf(said, execution);
}

/** The run's own state, with the status Temporal ended it with and nothing pending once it has closed. */
export function asEnded(state: RunState, description: WorkflowExecutionDescription): RunState {
  const status = endedAs(description, state.status);
  return status ? { ...state, status, pending: [] } : state;
}

/**
 * The last event of a closed run (`runId`) that its stream cannot hold: Temporal terminated it or its timeout ran
 * out, so its code never ran to say so, with the termination's reason if given. A run says Failed and Canceled
 * itself, unless it failed before it told its stream anything (a start it refused): then with its failure's message.
 */
export async function untoldEnd(client: Client, workflowId: string, runId: string): Promise<RunEvent | undefined> {
  const handle = client.workflow.getHandle(workflowId, runId);
  const description = await handle.describe();
  const execution = description.status.name;
  if (execution === 'FAILED' || execution === 'CANCELLED') {
    const toldNothing = await handle.query(streamOffsetQuery).then(
      (end) => end === 0,
      () => false,
    );
    if (!toldNothing) return undefined;
    // Read through the client's converter, so a failure an encrypting codec wrote is read as the run wrote it.
    const message = await handle.result().then(
      () => undefined,
      (err: unknown) => ((err as { cause?: Error }).cause ?? (err as Error)).message,
    );
    return { type: 'run_failed', status: execution === 'FAILED' ? 'Failed' : 'Canceled', ...(message && { error: message }) };
  }
  if (execution !== 'TERMINATED' && execution !== 'TIMED_OUT') return undefined;
  const status = endedAs(description) as 'Terminated' | 'TimedOut';
  const { history } = await client.workflowService
    .getWorkflowExecutionHistory({
      namespace: client.options.namespace,
      execution: { workflowId, runId },
      historyEventFilterType: HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT,
    })
    .catch(() => ({ history: undefined }));
  const reason = history?.events?.[0]?.workflowExecutionTerminatedEventAttributes?.reason;
  return { type: 'run_failed', status, ...(reason && { error: reason }) };
}

/**
 * Refuses a read of the run (`runId`, or the current one) from `from`, past its stream's own `end`, unless it starts
 * just after the end the client tells of a run Temporal ended (`untoldEnd`, given the offset `end`): a reader that
 * resumes after the last id it was given, to whom nothing more comes. A closed run is refused without the promise of
 * a next item.
 */
export async function refusePastEnd(client: Client, workflowId: string, from: number, end: number, runId?: string): Promise<void> {
  const description = await client.workflow.getHandle(workflowId, runId).describe();
  if (!endedAs(description)) throw new StreamOffsetError(workflowId, from, end);
  const given = (await untoldEnd(client, workflowId, description.runId)) ? end + 1 : end;
  if (from > given) throw new StreamOffsetError(workflowId, from, given, true);
}
