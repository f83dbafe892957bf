/**
 * Rebuilds the assistant message from streamed `chat.completion.chunk`s exactly as the API sends them: content
 * deltas appended in order; tool calls keyed by `index`, their id, type and name taken from the first delta that
 * carries them (later deltas usually carry only the index), their argument fragments concatenated; the finish
 * reason from the choice's last chunk, the usage from the final chunk without choices.
 */
import type OpenAI from 'openai';
import type { AssistantMessage, ToolCall } from '../schemas/chat-message.js';
import type { Usage } from '../schemas/run-state.js';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Completion = OpenAI.Chat.Completions.ChatCompletion;

export interface AssembledCompletion {
  message: AssistantMessage;
  usage: Usage;
  finishReason: string;
}

export class CompletionAssembly {
  private content: string | null = null;
  private readonly calls: { id: string; name: string; arguments: string }[] = [];
  private finishReason: string | null = null;
  private usage: Usage = { promptTokens: 0, completionTokens: 0 };

  /** Takes one chunk; returns the content delta it carried, if any. */
  add(chunk: Chunk): string | undefined {
    if (chunk.usage) this.usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
    // One choice is asked for (n defaults to 1).
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return undefined;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const { content, tool_calls: toolCalls } = choice.delta;
    for (const delta of toolCalls ?? []) {
      const call = (this.calls[delta.index] ??= { id: '', name: '', arguments: '' });
      call.id ||= delta.id ?? '';
      call.name ||= delta.function?.name ?? '';
      call.arguments += delta.function?.arguments ?? '';
    }
    if (typeof content !== 'string') return undefined;
    this.content = (this.content ?? '') + content;
    return content || undefined;
  }

  /** The assembled reply, in the shape the non-streaming path returns. */
  result(): AssembledCompletion {
    const toolCalls: ToolCall[] = [];
    // A call streamed without an id or a name is kept as it came: the run gives every call its own id, and answers
    // a call with no (known) name as the error it is. Retrying the model would likely stream the same again.
    for (const call of this.calls) {
      // A sparse index the stream skipped.
      if (!call) continue;
      toolCalls.push({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } });
    }
    return {
      message: { role: 'assistant', content: this.content, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) },
      usage: this.usage,
      finishReason: this.finishReason ?? 'stop',
    };
  }
}

/** The same shape from a whole (non-streamed) completion; only function tool calls are kept. */
export function fromCompletion(completion: Completion): AssembledCompletion {
  const choice = completion.choices[0];
  const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [{ id: call.id, type: 'function' as const, function: { name: call.function.name, arguments: call.function.arguments } }]
      : [],
  );
  return {
    message: { role: 'assistant', content: choice?.message.content ?? null, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) },
    usage: { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 },
    finishReason: choice?.finish_reason ?? 'stop',
  };
}
