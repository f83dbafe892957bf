/**
 * A scripted reply as the `chat.completion.chunk` objects the Chat Completions API streams: the role, content
 * deltas, tool-call deltas (the first for a call carries its index, id, type and name with empty arguments; the
 * rest only the index and an arguments fragment), the finish reason, then, when asked for, the usage.
 */
import type { SelectedReply } from './reply-selection.js';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChunkMeta {
  id: string;
  created: number;
  model: string;
  /** `stream_options.include_usage`: every chunk carries `usage: null`, and a last chunk the usage. */
  includeUsage: boolean;
  usage: Usage;
}

type Delta = Record<string, unknown>;

const DEFAULT_CHUNK_SIZE = 4;

/** Splits by code point, so a fragment never ends inside a surrogate pair. */
function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Each call's deltas in order; interleaved, the calls take turns, one delta each. */
function toolCallDeltas(selected: SelectedReply, size: number): Delta[] {
  const perCall = selected.toolCalls.map((call, index) => [
    { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
    ...pieces(call.arguments, size).map((fragment) => ({ index, function: { arguments: fragment } })),
  ]);
  if (!selected.reply.interleaveToolCalls) return perCall.flat();
  const out: Delta[] = [];
  for (let round = 0; perCall.some((deltas) => round < deltas.length); round++) {
    for (const deltas of perCall) if (round < deltas.length) out.push(deltas[round]!);
  }
  return out;
}

export function completionChunks(selected: SelectedReply, meta: ChunkMeta): object[] {
  const size = selected.reply.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const content = selected.reply.content ?? '';
  const chunk = (choices: object[], usage: Usage | null = null) => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_scripted',
    choices,
    ...(meta.includeUsage && { usage }),
  });
  const choice = (delta: Delta, finishReason: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finishReason });

  const deltas: Delta[] = [
    ...pieces(content, size).map((piece) => ({ content: piece })),
    ...toolCallDeltas(selected, size).map((call) => ({ tool_calls: [call] })),
  ];
  // The first delta also carries the role; a reply with text opens with an empty content delta, as the API's do.
  const first = content || deltas.length === 0 ? { content: '' } : deltas.shift()!;
  const chunks = [
    chunk([choice({ role: 'assistant', ...(content ? {} : { content: null }), ...first, refusal: null })]),
    ...deltas.map((delta) => chunk([choice(delta)])),
    chunk([choice({}, selected.toolCalls.length > 0 ? 'tool_calls' : 'stop')]),
  ];
  if (meta.includeUsage) chunks.push(chunk([], meta.usage));
  return chunks;
}
