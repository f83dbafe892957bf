/**
 * One model call: a breakpoint before it, the model chosen (a selector's choice, or the agent's), the transcript
 * as the beforeModel hook shows it going out through the model activity, the reply taken in within the limits,
 * then judged (afterModel hook, breakpoints after the model and before tools) before it joins the transcript.
 */
import type { StructuredCheck } from '../activities/call-model.js';
import type { ModelCallInfo } from '../hooks/hook-types.js';
import type { AssistantMessage, ChatMessage } from '../schemas/chat-message.js';
import type { Usage } from '../schemas/run-state.js';
import type { AgentRun } from './agent-run.js';
import { breakBeforeModel, startOverPatches } from './breakpoint-pause.js';
import { continueAsNewBeforePause } from './continue-as-new.js';
import { callModel } from './model-call.js';
import { chooseModel } from './model-choice.js';
import { beforeModel } from './model-hooks.js';
import { PATCHES, takesPatch } from './patches.js';
import { takeReply, type Intake } from './reply-intake.js';
import { replyAsText } from './reply-rewrite.js';
import { reviewReply } from './reply-review.js';
import { rejectedMessage } from './tool-messages.js';

export type ModelTurn =
  | {
      kind: 'reply';
      intake: Intake;
      /** Whether the reply's calls got our own ids. */
      ownIds: boolean;
      structured?: StructuredCheck;
    }
  /** The reply went back to the model (a retry, or a human rejected it): call the model again. */
  | { kind: 'again' }
  /** The run stops with this output. */
  | { kind: 'stop'; output: string };

export async function modelTurn(run: AgentRun): Promise<ModelTurn> {
  // A run that may pause around this call starts over first if it is due to: the pause may last days.
  await continueAsNewBeforePause(run, startOverPatches(run));
  const stopped = await breakBeforeModel(run);
  if (stopped !== undefined) return { kind: 'stop', output: stopped };
  const step = run.startModelCall();
  run.events.stepStarted(step);
  const choice = chooseModel(run, step);
  run.modelCalls.start({ step, model: choice.model, ...(choice.baseURL && { baseURL: choice.baseURL }) });
  const call: ModelCallInfo = { agent: run.agent, step, turnStep: run.turnSteps, model: choice.model, context: run.input.context ?? {} };
  const messages = await messagesFor(run, call);
  run.refresh(`calling ${choice.model}`);
  const result = await callModel(
    run,
    {
      agent: run.agent,
      model: choice.model,
      ...(choice.baseURL && { baseURL: choice.baseURL }),
      tools: run.snapshot.tools,
      step,
      ...(run.snapshot.mcpTools?.length && {
        mcpTools: run.snapshot.mcpTools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      }),
    },
    messages,
  );
  const reply = result?.message;
  const hasCalls = Array.isArray(reply?.tool_calls) && reply.tool_calls.length > 0;
  let ownIds = hasCalls && takesPatch(PATCHES.ownCallIds);
  const intake = takeReply(reply, result?.cut, ownIds, () => run.book.nextCallId());
  const usage: Usage = { promptTokens: count(result?.usage?.promptTokens), completionTokens: count(result?.usage?.completionTokens) };
  // What joins the transcript (the reply, or what hooks and humans made of it) is what watchers see.
  const accept = (message: AssistantMessage) => {
    run.acceptReply(message, usage);
    run.events.modelReplied(step, message);
  };
  if (!run.snapshot.afterModel && !run.snapshot.interrupt && !run.input.interrupt) {
    accept(intake.message);
    return { kind: 'reply', intake, ownIds, ...(result?.structured && { structured: result.structured }) };
  }

  const review = await reviewReply(run, intake, call);
  switch (review.kind) {
    case 'sendBack':
      // The model sees what it said and why it was not used, then answers again.
      accept(replyAsText(intake.message));
      run.transcript.append({ role: 'user', content: review.reason });
      return { kind: 'again' };
    case 'stop':
      accept({ role: 'assistant', content: review.output });
      return { kind: 'stop', output: review.output };
    case 'rejectCalls':
      accept(review.intake.message);
      run.transcript.append(
        ...review.intake.calls.map((c): ChatMessage => ({
          role: 'tool',
          tool_call_id: c.modelId,
          content: rejectedMessage(c.name, review.message, false),
        })),
      );
      run.modelCalls.accepted();
      return { kind: 'again' };
    case 'take': {
      accept(review.intake.message);
      run.modelCalls.accepted();
      if (review.rewritten && review.intake.calls.length > 0) ownIds = takesPatch(PATCHES.ownCallIds);
      const structured = review.rewritten ? recheck(run, review.intake) : result?.structured;
      return { kind: 'reply', intake: review.intake, ownIds, ...(structured && { structured }) };
    }
  }
}

/** The transcript, or what the agent's beforeModel hook makes of it for this call. */
async function messagesFor(run: AgentRun, call: ModelCallInfo): Promise<ChatMessage[]> {
  const transcript = [...run.transcript.messages];
  const use = run.snapshot.beforeModel;
  if (!use) return transcript;
  const messages = await beforeModel(use, { messages: transcript, call });
  run.modelCalls.sent(messages.length, transcript.length);
  return messages;
}

/**
 * A rewritten final answer is checked as JSON here (the activity checked the model's own against the schema); the
 * schema itself lives with the agent's code, so a rewrite that is JSON but off the schema is the hook's or the
 * editor's responsibility.
 */
function recheck(run: AgentRun, intake: Intake): StructuredCheck | undefined {
  if (!run.snapshot.structuredOutput || intake.calls.length > 0) return undefined;
  try {
    return { ok: true, value: JSON.parse(intake.message.content ?? '') };
  } catch (err) {
    return { ok: false, error: `the reply is not JSON (${String(err)})` };
  }
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
