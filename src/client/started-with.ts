/**
 * The agent and prompt a run was started with, for a run whose own state has none: one that refused its start input
 * before it read it (an unknown key, a `__proto__` key, a caller's carry: InvalidRunInputError), so `hitl show` and
 * the API would otherwise show it with neither. That input failed the run's checks and may hold anything: only a
 * string `agent` and a string `prompt` are taken, each cut to what a run takes (its schema's limits). Printing them
 * safely is the printer's part, as for any text of a run (the CLI's terminalText).
 */
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { LIMITS } from '../contract/limits.js';
import type { RunState } from '../schemas/run-state.js';

/** As the start input's schema bounds them (src/schemas/agent-workflow-input.ts). */
const MAX_AGENT_CHARS = 128;

/** The state with its empty agent and prompt taken from the start input, where that has them as strings. */
export async function withStartedAgentAndPrompt(client: Client, workflowId: string, runId: string, state: RunState): Promise<RunState> {
  if (state.agent && state.prompt) return state;
  const input = await rawStartInput(client, workflowId, runId).catch(() => undefined);
  if (typeof input !== 'object' || input === null) return state;
  const { agent, prompt } = input as { agent?: unknown; prompt?: unknown };
  return {
    ...state,
    ...(!state.agent && typeof agent === 'string' && agent && { agent: cut(agent, MAX_AGENT_CHARS) }),
    ...(!state.prompt && typeof prompt === 'string' && prompt && { prompt: cut(prompt, LIMITS.promptChars) }),
  };
}

/** The run's first argument as its first history event holds it, decoded as the client decodes payloads; unchecked. */
export async function rawStartInput(client: Client, workflowId: string, runId: string): Promise<unknown> {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 1,
  });
  let payloads = (history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? []) as Payload[];
  if (!payloads[0]) return undefined;
  const { payloadCodecs, payloadConverter } = client.options.loadedDataConverter;
  for (const codec of [...payloadCodecs].reverse()) payloads = await codec.decode(payloads);
  return payloadConverter.fromPayload(payloads[0]!);
}

/** At most `max` UTF-16 units, never ending inside a surrogate pair; a cut one ends with "…". */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 2] ?? '') ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}
