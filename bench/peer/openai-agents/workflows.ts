/**
 * The second peer: the human-approval pattern of Temporal's `@temporalio/openai-agents` integration, on the same
 * server and worker process as ours. The package itself is not used: it pins `@temporalio/*` 1.23 (we run 1.24,
 * and two SDKs cannot share a workflow bundle). Its documented pattern is followed step by step instead:
 *
 * 1. the agent loop calls the model through an activity; a tool that needs approval ends the run of the loop
 *    with an interruption;
 * 2. the workflow serializes the run's state (the Agents SDK's `RunState.toString()`: the conversation and the
 *    pending interruption, as one JSON string) and waits for an `approval` signal;
 * 3. it continues as new with the serialized state and the decision; the new run restores the state
 *    (`RunState.fromString`), approves the interruption, runs the tool as an activity and calls the model again.
 *
 * No validation, search attributes, audit log, deadline timer or query views: what the pattern needs, no more.
 */
import { condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { OpenaiAgentsPeerActivities } from './activities.js';

const { peerInvokeModel, peerWriteFile } = proxyActivities<OpenaiAgentsPeerActivities>({ startToCloseTimeout: '1m' });

export interface PeerMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
interface PeerRunState {
  messages: PeerMessage[];
  interruption?: { callId: string; name: string; arguments: string };
}
export interface PeerInput {
  prompt: string;
  /** The serialized run state, after continue-as-new. */
  runState?: string;
  approved?: boolean;
}

export const peerApprovalSignal = defineSignal<[{ callId: string; approved: boolean }]>('approval');
export const peerPendingQuery = defineQuery<string | null>('pendingApproval');

/** Tools that need a human's approval (the Agents SDK's `needsApproval`). */
const NEEDS_APPROVAL = new Set(['write_file']);

export async function openaiAgentsApprovalWorkflow(input: PeerInput): Promise<string> {
  const state: PeerRunState = input.runState
    ? (JSON.parse(input.runState) as PeerRunState)
    : {
        messages: [
          { role: 'system', content: 'You are a benchmark agent.' },
          { role: 'user', content: input.prompt },
        ],
      };
  if (state.interruption && input.approved !== undefined) {
    const call = state.interruption;
    state.interruption = undefined;
    const output = input.approved ? await peerWriteFile(call.arguments) : 'The user rejected this tool call.';
    state.messages.push({ role: 'tool', tool_call_id: call.callId, content: output });
  }
  for (;;) {
    const reply = await peerInvokeModel(state.messages);
    state.messages.push(reply);
    const calls = reply.tool_calls ?? [];
    if (!calls.length) return reply.content ?? '';
    const gated = calls.find((c) => NEEDS_APPROVAL.has(c.function.name));
    if (gated) {
      state.interruption = { callId: gated.id, name: gated.function.name, arguments: gated.function.arguments };
      break;
    }
    for (const c of calls) state.messages.push({ role: 'tool', tool_call_id: c.id, content: '[]' });
  }
  const runState = JSON.stringify(state);
  let decision: { callId: string; approved: boolean } | undefined;
  setHandler(peerPendingQuery, () => state.interruption?.callId ?? null);
  setHandler(peerApprovalSignal, (d) => {
    if (d.callId === state.interruption?.callId) decision = d;
  });
  await condition(() => decision !== undefined);
  return continueAsNew<typeof openaiAgentsApprovalWorkflow>({ prompt: input.prompt, runState, approved: decision!.approved });
}
