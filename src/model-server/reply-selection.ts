import type { ChatMessageIn, ChatRequest } from './chat-request.js';
import type { ModelScript, ScriptedReply } from './script-schema.js';

export interface SelectedReply {
  reply: ScriptedReply;
  /** Tool calls with their final ids and JSON-string arguments, as the API sends them. */
  toolCalls: { id: string; name: string; arguments: string }[];
  conversation: string | undefined;
  turn: number;
}

export function textOf(content: ChatMessageIn['content']): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

function matches(pattern: string, text: string): boolean {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  return regex ? new RegExp(regex[1]!, regex[2]).test(text) : text.includes(pattern);
}

/** Stateless: the same request always gets the same reply, whichever run or retry sends it. */
export function selectReply(script: ModelScript, request: ChatRequest): SelectedReply {
  const firstUser = request.messages.find((m) => m.role === 'user');
  const prompt = firstUser ? textOf(firstUser.content) : '';
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  const conversation = script.conversations.find((c) => matches(c.match, prompt));

  let reply: ScriptedReply | undefined;
  let repetition = 0;
  if (conversation) {
    let start = 0;
    for (const candidate of conversation.replies) {
      const count = candidate.repeat ?? 1;
      if (turn < start + count) {
        reply = candidate;
        repetition = turn - start;
        break;
      }
      start += count;
    }
  }
  reply ??= script.default ?? {
    content: conversation
      ? `(scripted model: conversation "${conversation.match}" has no reply for turn ${turn})`
      : `(scripted model: no conversation matches "${prompt.slice(0, 80)}")`,
  };

  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ? (repetition > 0 ? `${call.id}_${repetition}` : call.id) : `call_${turn}_${i}`,
    name: call.name,
    arguments: call.rawArguments ?? JSON.stringify(call.arguments ?? {}),
  }));
  return { reply, toolCalls, conversation: conversation?.match, turn };
}
