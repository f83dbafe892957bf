/**
 * Takes a model reply in: whatever the model sent, the run keeps a reply it can always answer and record. Too many
 * calls are cut to the limit (the model is told), calls whose arguments are too large stay in the transcript with
 * a placeholder and go back to the model as errors, and every call gets our own id; the model's id is kept only
 * to answer the model, replaced when it is empty, odd, too long or repeated within the reply.
 */
import { LIMITS } from '../contract/limits.js';
import { truncateBytes, utf8Length } from '../bounds/truncate.js';
import type { AssistantMessage, ToolCall } from '../schemas/chat-message.js';

export interface IntakeCall {
  id: string;
  /** The id the transcript answers the model with. */
  modelId: string;
  name: string;
  /** The arguments as recorded: the model's text, or a placeholder when it was over the limit. */
  rawArgs: string;
  /** Set when the call cannot run whatever its tool: it goes back to the model with this error. */
  problem?: string;
}

export interface Intake {
  /** The assistant message as the transcript keeps it. */
  message: AssistantMessage;
  calls: IntakeCall[];
  /** Calls past the per-reply limit, left out of the transcript: the model is told. */
  droppedCalls: number;
}

const SANE_MODEL_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const SANE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/**
 * @param ownIds whether calls get our ids (runs from before that keep the model's, exactly as they did).
 * @param nextId hands out our next call id.
 */
export function takeReply(raw: unknown, ownIds: boolean, nextId: () => string): Intake {
  const reply = (raw ?? {}) as { content?: unknown; tool_calls?: unknown };
  const content =
    reply.content === null || reply.content === undefined ? null : truncateBytes(asText(reply.content), LIMITS.replyTextBytes);
  const offered = Array.isArray(reply.tool_calls) ? reply.tool_calls : [];
  const kept = offered.slice(0, LIMITS.toolCallsPerReply);
  let replyBytes = utf8Length(content ?? '');
  const seenModelIds = new Set<string>();
  const calls = kept.map((entry): IntakeCall => {
    const call = (entry ?? {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const modelIdGiven = typeof call.id === 'string' ? call.id : '';
    const id = ownIds ? nextId() : modelIdGiven;
    const modelId = !ownIds || (SANE_MODEL_ID.test(modelIdGiven) && !seenModelIds.has(modelIdGiven)) ? modelIdGiven : id;
    seenModelIds.add(modelId);
    const givenName = asText(call.function?.name ?? '');
    const name = SANE_TOOL_NAME.test(givenName) ? givenName : truncateBytes(givenName, 128) || '(no name)';
    const args = asText(call.function?.arguments ?? '');
    const argsBytes = utf8Length(args);
    replyBytes += argsBytes;
    if (argsBytes > LIMITS.argumentsBytes || replyBytes > LIMITS.replyBytes) {
      const limit = argsBytes > LIMITS.argumentsBytes ? `${LIMITS.argumentsBytes} bytes per call` : `${LIMITS.replyBytes} bytes per reply`;
      return {
        id,
        modelId,
        name,
        rawArgs: JSON.stringify({ cut: `${argsBytes} bytes of arguments, over the limit of ${limit}` }),
        problem: `Error: the arguments of this ${name} call are ${argsBytes} bytes, over the limit of ${limit}; the call did not run. Send smaller arguments.`,
      };
    }
    return { id, modelId, name, rawArgs: args };
  });
  const toolCalls: ToolCall[] = calls.map((c) => ({ id: c.modelId, type: 'function', function: { name: c.name, arguments: c.rawArgs } }));
  return {
    message: { role: 'assistant', content, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) },
    calls,
    droppedCalls: offered.length - kept.length,
  };
}

/** What the model is told when its reply asked for more calls than run. */
export function droppedCallsNote(dropped: number): string {
  return `(Your reply asked for ${dropped} more tool call(s) than the limit of ${LIMITS.toolCallsPerReply} per reply; those were not run. Ask for them again in a later reply.)`;
}

/** Model content is text; anything else (content parts, numbers) becomes text rather than reaching results unchecked. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((part) => (typeof part === 'string' ? part : asText((part as { text?: unknown })?.text ?? ''))).join('');
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
