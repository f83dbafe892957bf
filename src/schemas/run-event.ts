/**
 * What a run publishes on its Workflow Stream's `events` topic as it moves (src/workflows/run-events.ts), one kind
 * per transition, and what watchers read there: `hitl watch`, the typed client's `subscribe()`, the HTTP API's
 * Server-Sent Events and the inbox. Model text goes on the `tokens` topic (TokenEvent) as it is written; the
 * `model_replied` event then has the step's reply as the run took it in.
 *
 * Events are small: texts are cut to `LIMITS.eventTextBytes` and arguments to a preview (the run state has them
 * whole), so a long run's events fit in the part of the stream a run keeps.
 */
import { z } from 'zod';
import { RunOutcome, RunStatus } from '../contract/run-status.js';
import { AuditEntry } from './audit-entry.js';
import { PendingApproval } from './pending-approval.js';
import { Usage } from './run-state.js';
import { SessionEnd } from './session.js';
import { TokenEvent } from './token-event.js';

const step = z.number().int().nonnegative();
/** The call's id in this run (`call-3`), as decisions name it. */
const id = z.string();
const toolName = z.string();

export const RunEvent = z.discriminatedUnion('type', [
  /** The run's status changed (running, awaiting approval, awaiting a message). */
  z.object({ type: z.literal('status_changed'), status: RunStatus }),
  /** A model call began; its text follows on `tokens`, marked with this step. */
  z.object({ type: z.literal('step_started'), step }),
  /** The step's reply as the run took it in; its tool calls follow as `tool_call_proposed`. */
  z.object({ type: z.literal('model_replied'), step, content: z.string().nullable() }),
  /** The model asked for a call; `arguments` as it wrote them (cut to a preview). */
  z.object({ type: z.literal('tool_call_proposed'), step, id, toolName, arguments: z.string() }),
  /** The policy gated the call: it waits for a human (`approval_requested`) unless an `always` decision settles it. */
  z.object({ type: z.literal('tool_call_gated'), id, toolName, rule: z.string() }),
  z.object({ type: z.literal('tool_call_started'), id, toolName }),
  /** The call's result as the model will read it (a rejection or a response counts too). */
  z.object({ type: z.literal('tool_call_finished'), id, content: z.string() }),
  /** A call waits for a decision (again, under a new id, when an edit was proposed into another tool). */
  z.object({ type: z.literal('approval_requested'), approval: PendingApproval }),
  z.object({ type: z.literal('approval_decided'), entry: AuditEntry }),
  /** The deadline passed; `entry.type` says what `onTimeout` did. */
  z.object({ type: z.literal('approval_timed_out'), entry: AuditEntry }),
  /** A decision that could not be taken (by signal: updates are refused before they reach the run). */
  z.object({ type: z.literal('decision_refused'), entry: AuditEntry }),
  /** Something the run noted about a waiting call: an escalation, a reviewer's word, consent that lapsed, a changed world. */
  z.object({ type: z.literal('approval_noted'), entry: AuditEntry }),
  /** Session runs: a user message waits for the next turn (`queued` messages now). */
  z.object({ type: z.literal('message_queued'), content: z.string(), queued: z.number().int() }),
  /**
   * The run continued as new (continue-as-new): a new execution, `runId`, goes on with what waits and what was said.
   * The Temporal UI shows its history from here; earlier runs keep theirs.
   */
  z.object({ type: z.literal('run_continued'), runId: z.string(), step }),
  z.object({
    type: z.literal('run_finished'),
    status: RunOutcome,
    output: z.string(),
    steps: step,
    usage: Usage,
    ended: SessionEnd.optional(),
  }),
  /**
   * The run failed or was canceled (it says so itself), or Temporal terminated it or its timeout ran out: clients
   * add those as the last event (src/client/ended-run.ts), as the run never ran again to say them.
   */
  z.object({
    type: z.literal('run_failed'),
    status: z.enum(['Failed', 'Canceled', 'Terminated', 'TimedOut']),
    error: z.string().optional(),
  }),
]);

export type RunEvent = z.infer<typeof RunEvent>;

/** One item of a run's stream as subscribers get it: its offset (the SSE event id), and what it holds. */
export type RunStreamItem = { offset: number } & ({ topic: 'events'; event: RunEvent } | { topic: 'tokens'; token: TokenEvent });
