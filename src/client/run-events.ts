/** Turns successive snapshots of a run into the events between them (what `watch` yields). */
import type { RunEvent } from '../schemas/run-event.js';
import { isClosed, type RunStatus } from '../contract/run-status.js';
import type { RunState } from '../schemas/run-state.js';

export interface WatchCursor {
  status?: RunStatus;
  step: number;
  /** Messages and audit entries already reported (the query returns only what comes after). */
  messages: number;
  decisions: number;
  pendingIds: ReadonlySet<string>;
}

export const START_CURSOR: WatchCursor = { step: 0, messages: 2, decisions: 0, pendingIds: new Set() };

/** Statuses a run does not leave. */
export const TERMINAL = { has: (status: RunStatus) => isClosed(status) };

export function diffRunState(cursor: WatchCursor, state: RunState): { events: RunEvent[]; cursor: WatchCursor } {
  const events: RunEvent[] = [];
  const newMessages = state.messages.slice(Math.max(0, cursor.messages - state.messagesFrom));
  // A step starts with a model call: report it just before that call's reply (or alone, while it is in flight).
  const stepStarted = state.step > cursor.step;
  const lastReply = newMessages.map((m) => m.role).lastIndexOf('assistant');
  // Approvals and decisions come after the model asked for the calls and before their results.
  let gateReported = false;
  const reportGate = () => {
    if (gateReported) return;
    gateReported = true;
    for (const approval of state.pending) if (!cursor.pendingIds.has(approval.id)) events.push({ type: 'approval_requested', approval });
    for (const entry of state.decisions.slice(Math.max(0, cursor.decisions - state.decisionsFrom)))
      events.push({ type: 'decision', entry });
  };
  for (const [i, message] of newMessages.entries()) {
    if (message.role === 'assistant') {
      if (stepStarted && i === lastReply) events.push({ type: 'step', step: state.step });
      events.push({ type: 'model_reply', message });
    } else if (message.role === 'tool') {
      reportGate();
      events.push({ type: 'tool_result', toolCallId: message.tool_call_id, content: message.content });
    } else if (message.role === 'user') events.push({ type: 'user_message', content: message.content });
  }
  reportGate();
  if (stepStarted && lastReply === -1) events.push({ type: 'step', step: state.step });
  if (state.status !== cursor.status) {
    events.push(
      TERMINAL.has(state.status)
        ? {
            type: 'completed',
            status: state.status,
            ...(state.result && { result: state.result }),
            ...(state.error && { error: state.error }),
          }
        : { type: 'status', status: state.status },
    );
  }
  return {
    events,
    cursor: {
      status: state.status,
      step: Math.max(cursor.step, state.step),
      messages: state.messagesFrom + state.messages.length,
      decisions: state.decisionsFrom + state.decisions.length,
      pendingIds: new Set([...cursor.pendingIds, ...state.pending.map((p) => p.id)]),
    },
  };
}
