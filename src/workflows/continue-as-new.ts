/**
 * Long runs start over with fresh history before Temporal's limits (51,200 events / 50 MB) get near: when Temporal
 * suggests it, or at the run's own event or size threshold. Runs about to wait for people start over sooner, since
 * the wait can outlast the worker's cache: a decision on a run the worker let go replays the run's whole history
 * first (about 0.6 s at 1,000 events in bench/RESULTS.md, more on a slower machine, and near the 10 s workflow-task
 * timeout at 5,000). Only at points where nothing is in flight; everything the run knows goes across in its carried
 * state. This module is the one place that decides it.
 */
import {
  allHandlersFinished,
  CancellationScope,
  condition,
  isCancellation,
  log,
  makeContinueAsNewFunc,
  workflowInfo,
} from '@temporalio/workflow';
import { LIMITS } from '../contract/limits.js';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import type { AgentResult } from '../schemas/run-state.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { fitNextRunInput, type NextRunInput } from './carry-fit.js';
import { noteUnfit, unfitPlace } from './carry-unfit.js';
import { historyReading, historySizeAtStart } from './history-reading.js';
import { askedMemo } from './run-visibility.js';
import { PATCHES, takesPatch, type PatchId } from './patches.js';
import { compactionSummaryMessage } from './tool-messages.js';

/** `continueAsNew.beforeWaitEvents` unless the run sets it. */
const DEFAULT_BEFORE_WAIT_EVENTS = 500;
/**
 * After its state did not fit in the next run's input, a run tries again at its next step, once its open step's calls
 * are settled, or once its history grew by this many events.
 */
const UNFIT_RETRY_EVENTS = 200;

/** Whether the run is where its state last did not fit: the waiting calls and queued messages that make it up stay. */
function stillUnfit(run: AgentRun, historyLength: number): boolean {
  const unfitAt = unfitPlace();
  return (
    unfitAt !== undefined &&
    historyLength < unfitAt.historyLength + UNFIT_RETRY_EVENTS &&
    run.step === unfitAt.step &&
    run.book.calls.length === unfitAt.openCalls
  );
}

/**
 * Decided from history figures a replay reads the same as the live run did (history-reading.ts), never from
 * `workflowInfo()` after a local tool.
 * @param waitingForPeople the run waits for a decision or a message, which may take days
 */
export function continueAsNewDue(run: AgentRun, waitingForPeople = false): boolean {
  const info = historyReading();
  // The run goes on in this run meanwhile: Temporal's own history limit (51,200 events, 50 MB) is far.
  if (stillUnfit(run, info.historyLength)) return false;
  const limits = run.input.continueAsNew;
  // What the run started with (its input, the state it carries) is in every run of the chain: counted, a run whose
  // start alone reaches maxBytes would start over at once, again and again (patch sizeFromStart).
  const startSize = takesPatch(PATCHES.sizeFromStart) ? historySizeAtStart() : 0;
  return (
    info.continueAsNewSuggested ||
    (limits?.maxEvents !== undefined && info.historyLength >= limits.maxEvents) ||
    (limits?.maxBytes !== undefined && info.historySize - startSize >= limits.maxBytes) ||
    (waitingForPeople &&
      info.historyLength >= (limits?.beforeWaitEvents ?? DEFAULT_BEFORE_WAIT_EVENTS) &&
      steppedInThisRun(run) &&
      takesPatch(PATCHES.continueBeforeWaits))
  );
}

/**
 * Whether this run has taken a step since it started. A run that continued as new to wait does not start over
 * again for the same wait when signals fill its history: each start over copies the transcript into history, so a
 * flood of refused signals must not buy one every 500 events (the other thresholds still apply).
 */
function steppedInThisRun(run: AgentRun): boolean {
  return run.step > (run.input.carry?.step ?? 0);
}

/**
 * Whether handlers let the run continue as new now. A watcher's stream poll is a handler that waits for the next
 * item, so it never finishes while the run itself waits: runs that hand their stream off let polls go instead
 * (continueAsNewNow detaches them). The run's own handlers are synchronous: nothing else is ever left waiting.
 */
export function readyToHandOff(run: AgentRun): boolean {
  return run.events.handsOff || allHandlersFinished();
}

/**
 * Before a model call the run may pause around (a breakpoint before the model, after it, or before its tools): the
 * pause can last as long as a gated call's wait, and nothing is in flight here (the step's calls are settled), so
 * the run starts over first on the same terms. The next run comes back to the same model call and pauses where
 * this one would have, with the same breakpoint number, without starting over again. Pauses after the model start
 * over here, before the call, because at the pause the model's reply would have to go across too.
 * @param patches the patches under which this run starts over here, one per kind of breakpoint that may pause at this
 *   call (a run keeps the patches of the code that started it)
 */
export async function continueAsNewBeforePause(run: AgentRun, patches: readonly PatchId[]): Promise<void> {
  if (patches.some((id) => takesPatch(id)) && dueAndReady(run, true)) await continueAsNewNow(run);
}

/** Whether the run is due to start over and nothing stops it now: no call is running, and handlers let it go. */
function dueAndReady(run: AgentRun, waitingForPeople: boolean): boolean {
  return continueAsNewDue(run, waitingForPeople) && run.book.isPausable() && readyToHandOff(run);
}

/**
 * Continues as new once no decision, message or other handler is still being processed. Returns only when the state
 * to carry cannot fit in the next run's input (carry-fit.ts, since patch carryFits): the run then goes on as it is.
 */
export async function continueAsNewNow(run: AgentRun): Promise<void> {
  // Since patch carryMeasuredFirst, a state that cannot fit however much is shed declines here, before its watchers
  // are let go and before a summary is written: shed as far as it goes, the transcript is its system message and its
  // newest one, which every compaction keeps too.
  if (takesPatch(PATCHES.carryMeasuredFirst)) {
    const measured = fitNextRunInput(nextRunInput(run, [...run.transcript.messages]));
    if (!measured.input) return decline(run, measured.bytes);
  }
  // Waiting polls return and new ones are refused as draining: their watchers poll the next run.
  if (run.events.handsOff) run.events.detachPollers();
  await condition(allHandlersFinished);
  const messages = await compact(run);
  // A decision may have arrived while the summary was written and started a tool: wait until it is done.
  await condition(() => run.book.isPausable() && allHandlersFinished());
  await run.notifications.settle();
  const next = nextRunInput(run, messages);
  // Webhook events still in flight go to a delivery that outlives this run only once it is sure to continue.
  const fitted = takesPatch(PATCHES.carryFits) ? fitNextRunInput(next) : { input: next, bytes: 0 };
  if (fitted.input) {
    await run.notifications.handOver();
    return startNextRun(fitted.input);
  }
  // Its watchers' polls were refused as draining, and they poll again: this run is still the one to follow. (Since
  // patch carryMeasuredFirst, only when what came in meanwhile, such as a message, made the state too large.)
  if (run.events.handsOff) run.events.reattachPollers();
  decline(run, fitted.bytes);
}

function nextRunInput(run: AgentRun, messages: ChatMessage[]): NextRunInput {
  const { carry: _previous, ...input } = run.input;
  return { ...input, carry: run.carry(messages, takesPatch(PATCHES.auditKeepsDecided)) };
}

/** The run stays in this run: it notes where, for continueAsNewDue and for views, and says so in them and in the worker's log. */
function decline(run: AgentRun, bytes: number): void {
  noteUnfit({ historyLength: historyReading().historyLength, step: run.step, openCalls: run.book.calls.length, bytes });
  // For the Temporal UI's current details; nothing else it publishes has changed, so it writes no event.
  run.refresh();
  log.warn('Not continuing as new: the state to carry does not fit in one payload, even after shedding', {
    bytes,
    limit: LIMITS.carriedInputBytes,
  });
}

/**
 * The next run gets this one's prompt and requester in its memo: it starts with none, and lists (the inbox, `hitl
 * pending`) showed a continued run's calls with an empty prompt and no requester. Only the command's memo changes, so
 * histories replay as they ran. Its pending approvals it writes itself, as they change.
 */
function startNextRun(input: NextRunInput): Promise<never> {
  const next = makeContinueAsNewFunc<(input: AgentWorkflowInput) => Promise<AgentResult>>({
    memo: askedMemo(input.prompt, input.requestedBy, chainStartedAt()),
  });
  return next(input);
}

/**
 * When this run's chain began: what the memo it started with says, if the run before it wrote that memo, else this
 * run's start. A first run's memo is its starter's: it may hold anything, and the run must still continue.
 */
function chainStartedAt(): string {
  const { memo, startTime, continuedFromExecutionRunId } = workflowInfo();
  const said = continuedFromExecutionRunId ? memo?.startedAt : undefined;
  return typeof said === 'string' && writtenByToISOString(said) ? said : startTime.toISOString();
}

/** An instant exactly as `toISOString` writes it (`2026-02-30T…` parses, as March 2, but is not one). */
function writtenByToISOString(text: string): boolean {
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text;
}

/**
 * Waits for `work`, but continues as new meanwhile once calls wait for people with a long history behind them, or
 * if history grows too long while they wait (a flood of signals can do that), and nothing is running.
 */
export async function whileContinuingAsNewIfDue(run: AgentRun, work: Promise<unknown>): Promise<void> {
  // Once around unless the state did not fit the next run (continueAsNewNow returned): then the wait goes on.
  for (;;) {
    const watch = new CancellationScope();
    const due = watch
      .run(() => condition(() => dueAndReady(run, run.pending().length > 0)))
      .then(
        () => true,
        (err) => {
          // Cancelled (the step finished, or the run is being cancelled): never wins the race, `work` decides.
          if (isCancellation(err)) return new Promise<boolean>(() => {});
          throw err;
        },
      );
    try {
      if (!(await Promise.race([work.then(() => false), due]))) return;
      await continueAsNewNow(run);
    } finally {
      watch.cancel();
    }
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
