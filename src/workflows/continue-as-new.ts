/**
 * Long runs start over with fresh history before Temporal's limits (51,200 events / 50 MB) get near: when
 * Temporal suggests it, or at the run's own event or size threshold. Only at points where nothing is in flight;
 * everything the run knows goes across in its carried state. This module is the one place that decides it.
 */
import { allHandlersFinished, CancellationScope, condition, continueAsNew, isCancellation, workflowInfo } from '@temporalio/workflow';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import type { AgentResult } from '../schemas/run-state.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { compactionSummaryMessage } from './tool-messages.js';

export function continueAsNewDue(run: AgentRun): boolean {
  const info = workflowInfo();
  const limits = run.input.continueAsNew;
  return (
    info.continueAsNewSuggested ||
    (limits?.maxEvents !== undefined && info.historyLength >= limits.maxEvents) ||
    (limits?.maxBytes !== undefined && info.historySize >= limits.maxBytes)
  );
}

/**
 * Whether handlers let the run continue as new now. A watcher's stream poll is a handler that waits for the next
 * item, so it never finishes while the run itself waits: runs that hand their stream off let polls go instead
 * (continueAsNewNow detaches them). The run's own handlers are synchronous: nothing else is ever left waiting.
 */
export function readyToHandOff(run: AgentRun): boolean {
  return run.events.handsOff || allHandlersFinished();
}

/** Continues as new once no decision, message or other handler is still being processed. */
export async function continueAsNewNow(run: AgentRun): Promise<never> {
  // Waiting polls return and new ones are refused as draining: their watchers poll the next run.
  if (run.events.handsOff) run.events.detachPollers();
  await condition(allHandlersFinished);
  const messages = await compact(run);
  // A decision may have arrived while the summary was written and started a tool: wait until it is done.
  await condition(() => run.book.isPausable() && allHandlersFinished());
  await run.notifications.flush();
  const { carry: _previous, ...input } = run.input;
  return continueAsNew<(input: AgentWorkflowInput) => Promise<AgentResult>>({ ...input, carry: run.carry(messages) });
}

/**
 * Waits for `work`, but continues as new meanwhile if history grows too long while calls wait for decisions (a
 * flood of signals can do that) and nothing is running.
 */
export async function whileContinuingAsNewIfDue(run: AgentRun, work: Promise<unknown>): Promise<void> {
  const watch = new CancellationScope();
  const due = watch
    .run(() => condition(() => continueAsNewDue(run) && run.book.isPausable() && readyToHandOff(run)))
    .then(
      () => true,
      (err) => {
        // Cancelled (the step finished, or the run is being cancelled): never wins the race, `work` decides.
        if (isCancellation(err)) return new Promise<boolean>(() => {});
        throw err;
      },
    );
  try {
    if (await Promise.race([work.then(() => false), due])) await continueAsNewNow(run);
  } finally {
    watch.cancel();
  }
}

/** Keeps the last turns (a turn starts at a user message), optionally replacing the rest with a model summary. */
async function compact(run: AgentRun): Promise<ChatMessage[]> {
  const options = run.input.continueAsNew?.compaction;
  const messages = [...run.transcript.messages];
  if (!options) return messages;
  const turnStarts = messages.flatMap((m, i) => (m.role === 'user' && i > 0 ? [i] : []));
  const keepFrom = turnStarts[Math.max(0, turnStarts.length - options.keepLastTurns)];
  if (keepFrom === undefined || keepFrom <= 1) return messages;
  const dropped = messages.slice(1, keepFrom);
  const kept = messages.slice(keepFrom);
  if (!options.summarize) return [messages[0]!, ...kept];
  const summary = await activities.summarizeTranscript.executeWithOptions(
    { ...ACTIVITY_OPTIONS.summarize, summary: `compact ${dropped.length} messages` },
    [{ agent: run.agent, model: run.snapshot.model, messages: dropped }],
  );
  return [messages[0]!, { role: 'user', content: compactionSummaryMessage(String(summary).slice(0, 64_000)) }, ...kept];
}
