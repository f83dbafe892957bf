/** One model call: the transcript goes out, the reply comes back, is taken in within the limits, and joins it. */
import { patched } from '@temporalio/workflow';
import type { StructuredCheck } from '../activities/call-model.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { PATCHES } from './patches.js';
import { takeReply, type Intake } from './reply-intake.js';

export interface ModelTurn {
  intake: Intake;
  /** Whether the reply's calls got our own ids. */
  ownIds: boolean;
  structured?: StructuredCheck;
}

export async function modelTurn(run: AgentRun): Promise<ModelTurn> {
  const step = run.startModelCall();
  run.events.stepStarted(step);
  run.refresh(`calling ${run.snapshot.model}`);
  const result = await activities.callModel.executeWithOptions(
    { ...ACTIVITY_OPTIONS.model, summary: `model ${run.snapshot.model} · step ${step}` },
    [
      {
        agent: run.agent,
        model: run.snapshot.model,
        messages: [...run.transcript.messages],
        tools: run.snapshot.tools,
        step,
        ...(run.snapshot.mcpTools?.length && {
          mcpTools: run.snapshot.mcpTools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        }),
      },
    ],
  );
  const reply = result?.message;
  const hasCalls = Array.isArray(reply?.tool_calls) && reply.tool_calls.length > 0;
  const ownIds = hasCalls && patched(PATCHES.ownCallIds);
  const intake = takeReply(reply, result?.cut, ownIds, () => run.book.nextCallId());
  run.acceptReply(intake.message, {
    promptTokens: count(result?.usage?.promptTokens),
    completionTokens: count(result?.usage?.completionTokens),
  });
  run.events.modelReplied(step, intake.message);
  return { intake, ownIds, ...(result?.structured && { structured: result.structured }) };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
