/**
 * A reply rewritten by an afterModel hook or by a human at a breakpoint: taken in like the model's own (the same
 * limits, the same id rules), so what runs next cannot tell it apart. A call that keeps its id keeps its place in
 * the conversation; a call without a known id is new and gets the next call id.
 */
import { canonicalSha256 } from '../policy/args-hash.js';
import type { AssistantMessage } from '../schemas/chat-message.js';
import type { WrittenReply, WrittenToolCall } from '../schemas/agent-options.js';
import type { WrittenBy } from '../schemas/pending-approval.js';
import type { AgentRun } from './agent-run.js';
import { takeReply, type Intake } from './reply-intake.js';

export function rewriteReply(run: AgentRun, before: Intake, written: WrittenReply): Intake {
  const known = new Map(before.calls.map((c) => [c.id, c]));
  const used = new Set<string>();
  const kept = written.toolCalls.map((call) => {
    const original = call.id !== undefined && !used.has(call.id) ? known.get(call.id) : undefined;
    if (original) used.add(original.id);
    return original;
  });
  const raw = {
    content: written.content,
    tool_calls: written.toolCalls.map((call, i) => ({
      // The model's id for calls it asked for (the transcript answers it by that id); new calls get ours.
      id: kept[i]?.modelId ?? '',
      type: 'function',
      function: { name: call.name, arguments: argumentsText(call) },
    })),
  };
  let index = 0;
  return takeReply(raw, undefined, true, () => kept[index++]?.id ?? run.book.nextCallId());
}

/**
 * A reply a person rewrote at a breakpoint, each call marked with who wrote it: a call the edit left as it was (its
 * id, tool and arguments) keeps its writer, the model or whoever wrote it at an earlier breakpoint; any other call
 * is the editor's. A call a person wrote then waits for someone else (announce.ts), as an edit into another tool does.
 */
export function writtenAt(before: Intake, after: Intake, editor: WrittenBy): Intake {
  const known = new Map(before.calls.map((c) => [c.id, c]));
  const calls = after.calls.map((call) => {
    const original = known.get(call.id);
    const unchanged = original && original.name === call.name && sameArguments(original.rawArgs, call.rawArgs);
    const writtenBy = unchanged ? original.writtenBy : editor;
    const { writtenBy: _, ...rest } = call;
    return writtenBy ? { ...rest, writtenBy } : rest;
  });
  return { ...after, calls };
}

/** The same arguments, however the JSON is spaced or its keys ordered (the model's text against a person's object). */
function sameArguments(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return canonicalSha256(JSON.parse(a)) === canonicalSha256(JSON.parse(b));
  } catch {
    return false;
  }
}

/** A reply as hooks and people see it: our call ids, arguments as objects when they are JSON objects. */
export function writtenFrom(intake: Intake): WrittenReply {
  return { content: intake.message.content, toolCalls: intake.calls.map((c) => ({ id: c.id, name: c.name, args: argsOf(c.rawArgs) })) };
}

/** The reply as the transcript would keep it, with its calls told in words: for a reply that is sent back. */
export function replyAsText(message: AssistantMessage): AssistantMessage {
  const calls = (message.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`);
  const text = [message.content ?? '', calls.length ? `[tool calls, not run: ${calls.join(', ')}]` : ''].filter(Boolean).join('\n');
  return { role: 'assistant', content: text || '(an empty reply)' };
}

function argumentsText(call: WrittenToolCall): string {
  return typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
}

function argsOf(raw: string): WrittenToolCall['args'] {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : raw;
  } catch {
    return raw;
  }
}
