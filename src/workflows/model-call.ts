/**
 * The model activity for one call, its messages given by reference to the run's previous call's (patch
 * messagesByReference, src/contract/message-chain.ts) or whole.
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import type { CallModelInput, CallModelResult } from '../activities/call-model.js';
import { MESSAGES_NOT_HELD, MESSAGES_UNAVAILABLE } from '../contract/message-chain.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { PATCHES, takesPatch } from './patches.js';
import { summaryText } from './summary-text.js';

export type ModelCallRequest = Omit<CallModelInput, 'messages' | 'messagesByReference'>;

export async function callModel(run: AgentRun, request: ModelCallRequest, messages: ChatMessage[]): Promise<CallModelResult> {
  const options = { ...ACTIVITY_OPTIONS.model, summary: summaryText(`model ${request.model} · step ${request.step}`) };
  if (!takesPatch(PATCHES.messagesByReference)) return activities.callModel.executeWithOptions(options, [{ ...request, messages }]);
  const canSendWhole = takesPatch(PATCHES.messagesWholeWhenUnavailable);
  // A run that can send the call whole takes the run's "not held" as final; one that cannot keeps the call's retries,
  // which may reach a worker whose code still holds the messages (a fleet mid-deploy). Retry options are not part of
  // what a replay compares, so this holds for the runs of every set.
  const byReference = canSendWhole ? { ...options, retry: { ...options.retry, nonRetryableErrorTypes: [MESSAGES_NOT_HELD] } } : options;
  let result: CallModelResult;
  try {
    result = await activities.callModel.executeWithOptions(byReference, [
      { ...request, messagesByReference: run.sentMessages.reference(messages) },
    ]);
  } catch (err) {
    // The run could not give the messages the call names: its code makes other messages than the code that
    // scheduled the call (a deploy reworded a note to the model without a patch), or no worker could ask it for them
    // through all the call's retries. The model is sent what this code makes, whole, and the history says so; before,
    // the run failed.
    if (!canSendWhole || !messagesUnavailable(err)) throw err;
    return activities.callModel.executeWithOptions(options, [{ ...request, messages }]);
  }
  // A result may come from anyone who can complete the activity: read it as the rest of the turn does (model-turn.ts).
  if (takesPatch(PATCHES.messagesSentCompared)) run.sentMessages.sent(result?.sentHash);
  return result;
}

function messagesUnavailable(err: unknown): boolean {
  return (
    err instanceof ActivityFailure &&
    err.cause instanceof ApplicationFailure &&
    (err.cause.type === MESSAGES_NOT_HELD || err.cause.type === MESSAGES_UNAVAILABLE)
  );
}
