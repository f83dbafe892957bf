/**
 * Queries, updates and signals of `agentWorkflow`: the wire contract other services and the CLI depend on. The
 * definitions are plain names and types, so clients import them as freely as the workflow does.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { PollInput, PollResult } from '@temporalio/workflow-streams/workflow';
import type { DecideResult } from '../schemas/decision.js';
import type { DecisionInputShape } from './seed-decisions.js';
import type { McpSkippedTool, McpTool } from '../schemas/mcp-tool.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunState, RunStateQueryOptions } from '../schemas/run-state.js';
import type { LangChainInterrupt, ToolApprovalItem } from '../schemas/seed-views.js';
import type { EndInput, UserMessageInput } from '../schemas/session.js';

/** Every pending call (this run's and its sub-agents'); arguments over the list budget are cut (`argsTruncated`). */
export const pendingApprovalsQuery = defineQuery<PendingApproval[]>('pendingApprovals');
/** One pending call by id, with its arguments whole; undefined when nothing with that id waits. */
export const pendingApprovalQuery = defineQuery<PendingApproval | undefined, [string]>('pendingApproval');
/** LangChain's HITL interrupt (`action_requests`, `review_configs`): the batch a resume without ids decides; null when nothing waits. */
export const interruptQuery = defineQuery<LangChainInterrupt | null>('interrupt');
/** Every pending call as an OpenAI Agents SDK interruption: the agent's name, the tool, its arguments as JSON text. */
export const interruptionsQuery = defineQuery<ToolApprovalItem[]>('interruptions');
/** Takes an optional `{messagesFrom, decisionsFrom}` to fetch only what is new. */
export const runStateQuery = defineQuery<RunState, [RunStateQueryOptions?]>('runState');
/**
 * Validated before it is accepted; a refusal changes nothing and answers with the reason. Takes our `DecideInput`
 * and the seeds' shapes (src/contract/seed-decisions.ts).
 */
export const decideUpdate = defineUpdate<DecideResult, [DecisionInputShape]>('decide');
/** The run's tools: names (ours and MCP), the MCP tools as the run recorded them when it started, and those left out. */
export const toolsQuery = defineQuery<{ tools: string[]; mcpTools: McpTool[]; mcpSkipped: McpSkippedTool[] }>('tools');
/** Fire-and-forget twin of `decide`: a refused signal is recorded in the audit log and the run keeps waiting. */
export const decisionSignal = defineSignal<[DecisionInputShape]>('decision');

/**
 * Sent by a decided tool's own activity while it still runs (src/activities/listings-wake.ts): the run publishes what
 * lists show of it, which it held back while the tool started (src/workflows/run-visibility.ts). It takes no input;
 * from anyone else it only makes the run publish its listings early.
 */
export const listingsDueSignal = defineSignal('hitl.listingsDue');

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
