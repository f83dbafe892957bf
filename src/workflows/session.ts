/**
 * Session runs stay open after each answer, waiting durably (under an idle timeout) for the next user message,
 * sent by the `message` update or signal; `end` closes them. The handlers are registered in agent-workflow.ts;
 * here is what they check and do.
 */
import { ApplicationFailure, condition } from '@temporalio/workflow';
import { z } from 'zod';
import { isBlankText } from '../bounds/blank-text.js';
import { jsonStringBytes } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import { InvalidMessageError, MessageQueueFullError, SessionClosedError } from '../errors.js';
import { undecodableMessage, undecodableReason } from '../contract/undecodable-payload.js';
import { durationToMs } from '../schemas/duration.js';
import { EndInput, UserMessageInput, type SessionEnd } from '../schemas/session.js';
import type { AgentRun } from './agent-run.js';
import { continueAsNewDue, continueAsNewNow, readyToHandOff } from './continue-as-new.js';
import { extraArgumentsRefusal } from './one-argument.js';
import { PATCHES, takesPatch } from './patches.js';
import { isoAt, workflowNow } from './workflow-clock.js';

/** Why a message or `end` cannot be taken, or undefined when it can. */
function sessionClosedReason(run: AgentRun): string | undefined {
  if (!run.input?.session) return 'This run is not a session; start it with `session: {}` to send it more messages.';
  if (run.session.endRequested || run.result) return 'The session has ended.';
  return undefined;
}

/**
 * Checks a `message` input; throws (refusing it) a typed, non-retryable failure with a reason a caller can act on:
 * `SessionClosedError` (its message is the reason; clients name the run), `InvalidMessageError`, or
 * `MessageQueueFullError`.
 */
export function checkMessage(run: AgentRun, raw: unknown, extra: unknown[] = []): UserMessageInput {
  refuseIfClosed(run);
  refuseBadPayload(raw, extra, 'message');
  const parsed = UserMessageInput.safeParse(raw);
  if (!parsed.success) throw new InvalidMessageError(`Not a message a session takes:\n${z.prettifyError(parsed.error)}`).toFailure();
  refuseIfQueueFull(run, parsed.data.content);
  // An empty turn says nothing to the model, and some model APIs refuse one: the run's next call would fail.
  if (takesPatch(PATCHES.blankUserMessagesRefused) && isBlankText(parsed.data.content)) {
    throw new InvalidMessageError(
      'The message says nothing (only spaces, line breaks or characters that print as nothing). Nothing was queued.',
    ).toFailure();
  }
  return parsed.data;
}

/**
 * Messages wait in the queue until a turn takes them, and go across continue-as-new with it: unbounded, a sender
 * could fill the carried state past Temporal's 2 MB payload limit, and the server would end the run when it
 * continued as new (patch escapedSizes).
 */
function refuseIfQueueFull(run: AgentRun, content: string): void {
  if (!takesPatch(PATCHES.escapedSizes)) return;
  const queued = run.session.bytes;
  const bytes = jsonStringBytes(content);
  if (queued + bytes <= LIMITS.queuedMessagesBytes) return;
  // One no queue can hold (a prompt's worth of characters escaped six bytes each): "again later" would never do.
  if (bytes > LIMITS.queuedMessagesBytes) {
    throw new InvalidMessageError(
      `The message is ${bytes} bytes as the run holds it, and a run holds at most ${LIMITS.queuedMessagesBytes} of messages it has not read. Nothing was queued.`,
    ).toFailure();
  }
  throw ApplicationFailure.create({
    type: MessageQueueFullError.errorName,
    message:
      `The run holds ${queued} bytes of messages it has not read yet, and takes at most ${LIMITS.queuedMessagesBytes}; ` +
      'send this one again once its next turn has started. Nothing was queued.',
    nonRetryable: true,
    details: [{ code: 'queue_full' }],
  });
}

function refuseIfClosed(run: AgentRun): void {
  const reason = sessionClosedReason(run);
  if (reason) {
    throw ApplicationFailure.create({
      type: SessionClosedError.errorName,
      message: reason,
      nonRetryable: true,
      details: [{ code: 'session_closed' }],
    });
  }
}

/** A payload the worker could not decode, or one sent with more arguments than its one. */
function refuseBadPayload(raw: unknown, extra: unknown[], what: string): void {
  const undecoded = undecodableReason(raw);
  if (undecoded !== undefined) throw new InvalidMessageError(undecodableMessage(what, undecoded)).toFailure();
  const extraArguments = extraArgumentsRefusal(what, extra);
  if (extraArguments) throw new InvalidMessageError(extraArguments).toFailure();
}

/** Takes a checked message for the next turn (refusing it as checkMessage does); how many now wait. */
export function queueMessage(run: AgentRun, raw: unknown, extra: unknown[] = []): number {
  const { content } = checkMessage(run, raw, extra);
  const queued = run.session.push(content);
  run.events.messageQueued(content, queued);
  return queued;
}

/** Checks an `end` input, refusing it as checkMessage does; the input as parsed. */
export function checkEnd(run: AgentRun, raw: unknown, extra: unknown[] = []): EndInput {
  refuseIfClosed(run);
  refuseBadPayload(raw, extra, 'end request');
  const parsed = EndInput.safeParse(raw ?? {});
  if (!parsed.success) throw new InvalidMessageError(`Not an end request a session takes:\n${z.prettifyError(parsed.error)}`).toFailure();
  return parsed.data;
}

/**
 * After an answer: starts the next turn with every queued message, or says how the session ended (by `end` or after
 * the idle timeout). Continues as new while idle when history asks for it.
 */
export async function waitForNextTurn(run: AgentRun): Promise<'turn' | SessionEnd> {
  if (!run.session.length && !run.session.endRequested) {
    run.waitForMessage(isoAt(workflowNow() + durationToMs(run.input.session!.idleTimeout)));
    run.refresh('waiting for the next message');
  }
  for (;;) {
    // Messages queued before `end` still get their turn: their senders were told they were queued.
    if (run.session.length) break;
    if (run.session.endRequested) return endedByRequest(run);
    const remaining = Date.parse(run.session.idleDeadline!) - workflowNow();
    if (remaining <= 0) return endedIdle(run);
    const woke = await condition(
      () => run.session.length > 0 || run.session.endRequested || (continueAsNewDue(run, true) && readyToHandOff(run)),
      remaining,
      { summary: 'idle · waiting for the next message' },
    );
    if (!woke) return endedIdle(run);
    if (!run.session.length && !run.session.endRequested) await continueAsNewNow(run);
  }
  run.startTurn();
  run.refresh('running the agent');
  return 'turn';
}

function endedByRequest(run: AgentRun): SessionEnd {
  const reason = run.session.endReason;
  return { by: 'request', ...(reason !== undefined && { reason }) };
}

function endedIdle(run: AgentRun): SessionEnd {
  return { by: 'idle', reason: `no message came for ${run.input.session!.idleTimeout}` };
}
