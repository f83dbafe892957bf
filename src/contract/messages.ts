/**
 * Queries, updates and signals of `agentWorkflow`: the wire contract other services and the CLI depend on. The
 * definitions are plain names and types, so clients import them as freely as the workflow does.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { PollInput, PollResult } from '@temporalio/workflow-streams/workflow';
import type { DecideInput, DecideResult } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunState, RunStateQueryOptions } from '../schemas/run-state.js';
import type { EndInput, UserMessageInput } from '../schemas/session.js';

/** Every pending call (this run's and its sub-agents'); arguments over the list budget are cut (`argsTruncated`). */
export const pendingApprovalsQuery = defineQuery<PendingApproval[]>('pendingApprovals');
/** One pending call by id, with its arguments whole; undefined when nothing with that id waits. */
export const pendingApprovalQuery = defineQuery<PendingApproval | undefined, [string]>('pendingApproval');
/** Takes an optional `{messagesFrom, decisionsFrom}` to fetch only what is new. */
export const runStateQuery = defineQuery<RunState, [RunStateQueryOptions?]>('runState');
/** Validated before it is accepted; a refusal changes nothing and answers with the reason. */
export const decideUpdate = defineUpdate<DecideResult, [DecideInput]>('decide');
/** Fire-and-forget twin of `decide`: a refused signal is recorded in the audit log and the run keeps waiting. */
export const decisionSignal = defineSignal<[DecideInput]>('decision');

/** Session runs: the next user message, by update (answers once queued) or signal. */
export const messageUpdate = defineUpdate<{ queued: number }, [UserMessageInput]>('message');
export const messageSignal = defineSignal<[UserMessageInput]>('message');
/** Session runs: close the session after the current turn. */
export const endUpdate = defineUpdate<{ ending: true }, [EndInput]>('end');
export const endSignal = defineSignal<[EndInput]>('end');

/**
 * The run's Workflow Stream (@temporalio/workflow-streams, src/workflows/run-stream.ts): the library's long poll
 * for items from an offset (an update: it waits for the next item) and its offset query, by the protocol's names;
 * and our read of the same items without waiting (a query: what a watcher missed when the run closed between two
 * polls, as an update cannot reach a closed run). Newer subscribers of the library (Python's
 * `temporalio.contrib.workflow_streams` 1.35) drain a closed run with a query named like the poll, but the
 * TypeScript SDK lets a workflow register only the library's own `__temporal_` names, which do not include it.
 * Both reads answer at most about 1 MB; `more_ready` says to ask again.
 */
export const streamPollUpdate = defineUpdate<PollResult, [PollInput]>('__temporal_workflow_stream_poll');
export const runStreamItemsQuery = defineQuery<PollResult, [PollInput]>('runStreamItems');
/** The offset the stream's next item will get. */
export const streamOffsetQuery = defineQuery<number>('__temporal_workflow_stream_offset');
