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

/** The match's capture groups (empty for a substring match), or undefined when it does not match. */
function matches(pattern: string, text: string): string[] | undefined {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (!regex) return text.includes(pattern) ? [] : undefined;
  const found = new RegExp(regex[1]!, regex[2]).exec(text);
  return found ? found.slice(1).map((g) => g ?? '') : undefined;
}

/** Fills `{{1}}`, `{{2}}`… with the conversation's capture groups ("Cancel order 1236" cancels 1236). */
function fill(text: string, groups: string[], inJson: boolean): string {
  return text.replace(/\{\{(\d)\}\}/g, (whole, n: string) => {
    const value = groups[Number(n) - 1];
    if (value === undefined) return whole;
    return inJson ? JSON.stringify(value).slice(1, -1) : value;
  });
}

/** Stateless: the same request always gets the same reply, whichever run or retry sends it. */
export function selectReply(script: ModelScript, request: ChatRequest): SelectedReply {
  const firstUser = request.messages.find((m) => m.role === 'user');
  const prompt = firstUser ? textOf(firstUser.content) : '';
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  let groups: string[] = [];
  const conversation = script.conversations.find((c) => {
    const found = matches(c.match, prompt);
    if (found) groups = found;
    return found !== undefined;
  });

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
    id: call.id !== undefined ? (repetition > 0 && call.id ? `${call.id}_${repetition}` : call.id) : `call_${turn}_${i}`,
    name: call.name,
    arguments: fill(call.rawArguments ?? JSON.stringify(call.arguments ?? {}), groups, call.rawArguments === undefined),
  }));
  const filled = typeof reply.content === 'string' ? { ...reply, content: fill(reply.content, groups, false) } : reply;
  return { reply: filled, toolCalls, conversation: conversation?.match, turn };
}
