/**
 * The transcript holds the model's own ids for its tool calls (it needs them back), which may repeat from step to
 * step; decisions, `hitl pending` and `hitl watch` name calls by the run's ids (`call-4`). `hitl show` labels a call
 * with the run's id where the policy's outcomes tell it: they list each step's calls in the model's order, with the
 * run's ids. Matched from the newest step back, and only while each step's tool names agree; earlier calls (past
 * what the run keeps of its outcomes, or a reply edited at a breakpoint) keep the model's id.
 */
import type { ChatMessage } from '../../schemas/chat-message.js';
import type { PolicyOutcome } from '../../schemas/run-state.js';

/** For each assistant message (by index) whose calls could be matched: the run's ids, in its calls' order. */
export function runCallIds(messages: readonly ChatMessage[], outcomes: readonly PolicyOutcome[] | undefined): Map<number, string[]> {
  const steps = new Map<number, PolicyOutcome[]>();
  // A state written by hand or by another client may leave the outcomes out: then every call keeps the model's id.
  for (const outcome of outcomes ?? []) steps.set(outcome.step, [...(steps.get(outcome.step) ?? []), outcome]);
  const byStep = [...steps].sort(([a], [b]) => a - b).map(([, calls]) => calls);
  const replies = messages.flatMap((m, i) => (m.role === 'assistant' && m.tool_calls?.length ? [{ i, calls: m.tool_calls }] : []));
  const ids = new Map<number, string[]>();
  for (let back = 1; back <= Math.min(byStep.length, replies.length); back++) {
    const step = byStep[byStep.length - back]!;
    const reply = replies[replies.length - back]!;
    const same = step.length === reply.calls.length && step.every((o, j) => o.toolName === reply.calls[j]!.function.name);
    if (!same) break;
    ids.set(
      reply.i,
      step.map((o) => o.id),
    );
  }
  return ids;
}
