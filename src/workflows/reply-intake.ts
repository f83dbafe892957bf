/**
 * Takes a model reply in: whatever the model sent, the run keeps a reply it can always answer and record. The
 * reply is cut to the limits (src/bounds/reply-bounds.ts): calls past the per-reply count are left out (the model
 * is told), calls with arguments over the limit stay with a placeholder and go back to the model as errors. Every
 * call gets our own id; the model's id is kept only to answer the model, replaced when it is empty, odd, too long
 * or repeated within the reply.
 */
import { LIMITS } from '../contract/limits.js';
import { boundReply, type BoundedReply } from '../bounds/reply-bounds.js';
import type { AssistantMessage, ToolCall } from '../schemas/chat-message.js';
import type { WrittenBy } from '../schemas/pending-approval.js';

export interface IntakeCall {
  id: string;
  /** The id the transcript answers the model with. */
  modelId: string;
  name: string;
  /** The arguments as recorded: the model's text, or a placeholder when it was over the limit. */
  rawArgs: string;
  /** Set when the call cannot run whatever its tool: it goes back to the model with this error. */
  problem?: string;
  /** Set when a person wrote the call at a breakpoint, not the model (reply-rewrite.ts, writtenAt). */
  writtenBy?: WrittenBy;
}

export interface Intake {
  /** The assistant message as the transcript keeps it. */
  message: AssistantMessage;
  calls: IntakeCall[];
  /** Calls past the per-reply limit, left out of the transcript: the model is told. */
  droppedCalls: number;
}

const SANE_MODEL_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * @param cut what the model activity already cut (absent from activities that did not).
 * @param ownIds whether calls get our ids (runs from before that keep the model's, exactly as they did).
 * @param nextId hands out our next call id.
 */
export function takeReply(
  raw: unknown,
  cut: Partial<Pick<BoundedReply, 'droppedCalls' | 'cutCalls'>> | undefined,
  ownIds: boolean,
  nextId: () => string,
): Intake {
  const reply = boundReply(raw, cut && { droppedCalls: cut.droppedCalls ?? 0, cutCalls: Array.isArray(cut.cutCalls) ? cut.cutCalls : [] });
  const seenModelIds = new Set<string>();
  const calls = reply.toolCalls.map((call, index): IntakeCall => {
    const id = ownIds ? nextId() : call.id;
    const modelId = !ownIds || (SANE_MODEL_ID.test(call.id) && !seenModelIds.has(call.id)) ? call.id : id;
    seenModelIds.add(modelId);
    const intake = { id, modelId, name: call.name || '(no name)', rawArgs: call.arguments };
    const cutCall = reply.cutCalls.find((c) => c.index === index);
    if (!cutCall) return intake;
    const limit = cutCall.limit === 'call' ? `${LIMITS.argumentsBytes} bytes per call` : `${LIMITS.replyBytes} bytes per reply`;
    return {
      ...intake,
      problem: `Error: the arguments of this ${intake.name} call are ${cutCall.bytes} bytes, over the limit of ${limit}; the call did not run. Send smaller arguments.`,
    };
  });
  const toolCalls: ToolCall[] = calls.map((c) => ({ id: c.modelId, type: 'function', function: { name: c.name, arguments: c.rawArgs } }));
  return {
    message: { role: 'assistant', content: reply.content, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) },
    calls,
    droppedCalls: reply.droppedCalls,
  };
}

/** What the model is told when its reply asked for more calls than run. */
export function droppedCallsNote(dropped: number): string {
  return `(Your reply asked for ${dropped} more tool call(s) than the limit of ${LIMITS.toolCallsPerReply} per reply; those were not run. Ask for them again in a later reply.)`;
}
