/**
 * Session runs stay open after each answer, waiting durably (under an idle timeout) for the next user message,
 * sent by the `message` update or signal; `end` closes them.
 */
import { allHandlersFinished, condition, log, setHandler } from '@temporalio/workflow';
import { z } from 'zod';
import { durationToMs } from '../schemas/duration.js';
import { EndInput, UserMessageInput } from '../schemas/session.js';
import type { AgentRun } from './agent-run.js';
import { continueAsNewDue, continueAsNewNow } from './continue-as-new.js';
import { endSignal, endUpdate, messageSignal, messageUpdate } from '../contract/messages.js';
import { workflowNow } from './workflow-clock.js';

function parseOrThrow<T>(schema: z.ZodType<T>, raw: unknown): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
  return parsed.data;
}

/** Why a message or `end` cannot be taken, or undefined when it can. */
function sessionClosedReason(run: AgentRun): string | undefined {
  if (!run.input?.session) return 'This run is not a session; start it with `session: {}` to send it more messages.';
  if (run.endRequested || run.result) return 'The session has ended.';
  return undefined;
}

export function registerSessionHandlers(run: AgentRun): void {
  const take = (input: UserMessageInput) => {
    run.inbox.push(input.content);
    run.publish(run.activity);
    return { queued: run.inbox.length };
  };
  const check = (raw: unknown) => {
    const reason = sessionClosedReason(run);
    if (reason) throw new Error(reason);
    return parseOrThrow(UserMessageInput, raw);
  };
  setHandler(messageUpdate, (input) => take(check(input)), { validator: (input) => void check(input) });
  setHandler(messageSignal, (input) => {
    try {
      take(check(input));
    } catch (err) {
      log.warn('message refused', { reason: err instanceof Error ? err.message : String(err) });
    }
  });

  const checkEnd = (raw?: unknown) => {
    const reason = sessionClosedReason(run);
    if (reason) throw new Error(reason);
    parseOrThrow(EndInput, raw ?? {});
  };
  const end = (raw?: unknown) => {
    checkEnd(raw);
    run.endRequested = true;
    run.publish(run.activity);
    return { ending: true as const };
  };
  setHandler(endUpdate, end, { validator: checkEnd });
  setHandler(endSignal, (input) => {
    try {
      end(input);
    } catch (err) {
      log.warn('end refused', { reason: err instanceof Error ? err.message : String(err) });
    }
  });
}

/**
 * After an answer: starts the next turn with every queued message, or reports that the session ended (by `end`
 * or after the idle timeout). Continues as new while idle when history asks for it.
 */
export async function waitForNextTurn(run: AgentRun): Promise<'turn' | 'ended'> {
  if (!run.inbox.length && !run.endRequested) {
    run.status = 'awaiting_message';
    run.idleDeadline ??= new Date(workflowNow() + durationToMs(run.input.session!.idleTimeout)).toISOString();
    run.publish('waiting for the next message');
  }
  for (;;) {
    // Messages queued before `end` still get their turn: their senders were told they were queued.
    if (run.inbox.length) break;
    if (run.endRequested) return 'ended';
    const remaining = Date.parse(run.idleDeadline!) - workflowNow();
    if (remaining <= 0) return 'ended';
    const woke = await condition(
      () => run.inbox.length > 0 || run.endRequested || (continueAsNewDue(run) && allHandlersFinished()),
      remaining,
      { summary: 'idle · waiting for the next message' },
    );
    if (!woke) return 'ended';
    if (!run.inbox.length && !run.endRequested) await continueAsNewNow(run);
  }
  run.idleDeadline = undefined;
  run.status = 'running';
  for (const content of run.inbox.splice(0)) run.messages.push({ role: 'user', content });
  run.turnSteps = 0;
  run.corrected = false;
  run.publish('running the agent');
  return 'turn';
}
