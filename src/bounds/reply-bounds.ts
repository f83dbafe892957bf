/**
 * A model reply cut to the run's limits. Applied in the model activity, so no reply, however large, can make the
 * activity's result exceed Temporal's payload limit, and again in the workflow (a no-op on a reply already cut),
 * so the workflow never depends on the activity having done it. What was cut is reported, so the model is told.
 */
import { LIMITS } from '../contract/limits.js';
import { truncateBytes, utf8Length } from './truncate.js';

export interface BoundedCall {
  id: string;
  name: string;
  arguments: string;
}

export interface CutCall {
  /** Position in the bounded reply's calls. */
  index: number;
  /** Size of the arguments the model sent. */
  bytes: number;
  /** Which limit it broke. */
  limit: 'call' | 'reply';
}

export interface BoundedReply {
  content: string | null;
  toolCalls: BoundedCall[];
  /** Calls past the per-reply count, left out. */
  droppedCalls: number;
  /** Calls whose arguments were replaced by a placeholder. */
  cutCalls: CutCall[];
}

/** Whatever arrived (any shape) as a reply within the limits. Pure; never throws. */
export function boundReply(raw: unknown, earlier?: Pick<BoundedReply, 'droppedCalls' | 'cutCalls'>): BoundedReply {
  const reply = (raw ?? {}) as { content?: unknown; tool_calls?: unknown };
  const content =
    reply.content === null || reply.content === undefined ? null : truncateBytes(asText(reply.content), LIMITS.replyTextBytes);
  const offered = Array.isArray(reply.tool_calls) ? reply.tool_calls : [];
  const kept = offered.slice(0, LIMITS.toolCallsPerReply);
  const cutCalls: CutCall[] = [...(earlier?.cutCalls ?? [])];
  let replyBytes = utf8Length(content ?? '');
  const toolCalls = kept.map((entry, index): BoundedCall => {
    const call = (entry ?? {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const id = typeof call.id === 'string' ? call.id.slice(0, 256) : '';
    const name = truncateBytes(asText(call.function?.name ?? ''), 128);
    const args = asText(call.function?.arguments ?? '');
    const bytes = utf8Length(args);
    replyBytes += bytes;
    const limit = bytes > LIMITS.argumentsBytes ? 'call' : replyBytes > LIMITS.replyBytes ? 'reply' : undefined;
    if (!limit || cutCalls.some((c) => c.index === index)) return { id, name, arguments: args };
    cutCalls.push({ index, bytes, limit });
    return { id, name, arguments: JSON.stringify({ cut: `${bytes} bytes of arguments, over the size limit` }) };
  });
  return { content, toolCalls, droppedCalls: (earlier?.droppedCalls ?? 0) + offered.length - kept.length, cutCalls };
}

/** Model content is text; anything else (content parts, numbers) becomes text rather than reaching results unchecked. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((part) => (typeof part === 'string' ? part : asText((part as { text?: unknown })?.text ?? ''))).join('');
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
