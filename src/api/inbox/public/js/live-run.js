/**
 * The selected run, live: its state once (GET api/runs/:id), then everything after it from the run's event stream
 * (GET api/runs/:id/events, from the state's `streamOffset`), so the transcript grows as the run moves and the
 * model's text appears as it is written. A dropped connection resumes after the last event it had (Last-Event-ID),
 * and so does one that hangs: the run's polled state shows when the stream has fallen behind it (`streamStalled`).
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { useEffect, useState } from 'preact/hooks';
import { describeRefusal } from './refusals.js';

const RETRY_MS = [1000, 2000, 5000, 10000];
const OPEN = new Set(['Running', 'AwaitingApproval', 'AwaitingMessage']);
const DECIDED = { approve: 'approved', edit: 'edited', reject: 'rejected', respond: 'answered for', timeout: 'timed out' };

/**
 * Calls `onItem` with each stream item (`{offset, topic, data}`) from `from` on, until the run ends (`onEnd`), a
 * refusal that retrying cannot fix (`onError`), or `stop()`. `next()` is the offset of the item it waits for;
 * `reconnect()` drops the connection it has and resumes at once after the last item it had.
 */
export function followRun(api, workflowId, from, { onItem, onEnd, onError }) {
  let stopped = false;
  let connection;
  let reconnecting = false;
  let lastEventId;
  (async () => {
    for (let failures = 0; !stopped; failures++) {
      connection = new AbortController();
      const signal = connection.signal;
      try {
        const response = await api.events(workflowId, lastEventId === undefined ? { from, signal } : { lastEventId, signal });
        const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value.event === 'end') return onEnd();
          if (value.event !== 'events' && value.event !== 'tokens') continue;
          lastEventId = value.id;
          failures = 0;
          onItem({ offset: Number(value.id), topic: value.event, data: JSON.parse(value.data) });
        }
      } catch (error) {
        if (stopped) return;
        if (error.status >= 400 && error.status < 500 && error.status !== 429) return onError(error);
      }
      if (reconnecting) {
        reconnecting = false;
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
    }
  })().finally(() => {
    stopped = true;
  });
  return {
    stop: () => {
      stopped = true;
      connection.abort();
    },
    reconnect: () => {
      if (stopped) return;
      reconnecting = true;
      connection.abort();
    },
    next: () => (lastEventId === undefined ? from : Number(lastEventId) + 1),
  };
}

/**
 * Whether a followed stream of an open run has stalled: since the last poll it has brought nothing (`next`, the offset
 * it waits for, is still `nextAtLastPoll`), though the run had then written items it has not brought (its
 * `streamOffset` then, `headAtLastPoll`). An open run's stream brings an item well within a poll's interval, so one
 * that lags a whole interval hangs somewhere between the run and this page (a proxy that keeps the connection open and
 * passes nothing, a request that never got its answer). A run that writes nothing while it waits is not lagged
 * behind, whatever the connection's state; a stream still bringing items is not replaced; and a closed run's stream
 * is left alone, since its rest is read from history, which can take longer (afterPoll gives it up in the end).
 */
export function streamStalled({ headAtLastPoll, nextAtLastPoll }, next) {
  return headAtLastPoll !== undefined && next === nextAtLastPoll && next < headAtLastPoll;
}

/** How the transcript says that the run ended, whether the stream brought it or the run's state did. */
const endNote = (status, why) => ({ role: 'note', content: `The run ended: ${status}${why ? ` (${why})` : ''}.` });
/** Why a session ended, as the CLI says it (src/client/cli/output.ts, outcomeText). */
const endedText = (ended) => ended && (ended.by === 'request' ? `end requested${ended.reason ? `: ${ended.reason}` : ''}` : ended.reason);

/** The transcript as the run state gives it, before any event; a run that has ended says so, as its stream would. */
export function viewOf(run) {
  const why = run.error ?? endedText(run.result?.ended);
  const messages = OPEN.has(run.status) ? [...run.messages] : [...run.messages, endNote(run.status, why)];
  return { status: run.status, messages, live: undefined, ended: false };
}

/** The view after one stream item. Text of a retried model call starts over; the step's reply replaces its text. */
export function applyItem(view, { topic, data }) {
  if (topic === 'tokens') {
    const live = view.live;
    if (live?.step === data.step && data.attempt < live.attempt) return view;
    const same = live?.step === data.step && live.attempt === data.attempt;
    return { ...view, live: { step: data.step, attempt: data.attempt, text: (same ? live.text : '') + data.text } };
  }
  const add = (...messages) => ({ ...view, messages: [...view.messages, ...messages] });
  const note = (content) => add({ role: 'note', content });
  switch (data.type) {
    case 'status_changed':
      return { ...view, status: data.status };
    case 'model_replied':
      return { ...add({ role: 'assistant', content: data.content, tool_calls: [] }), live: undefined };
    case 'tool_call_proposed': {
      const call = { id: data.id, function: { name: data.toolName, arguments: data.arguments } };
      const last = view.messages.at(-1);
      if (last?.role !== 'assistant' || !last.tool_calls) return add({ role: 'assistant', content: null, tool_calls: [call] });
      return { ...view, messages: [...view.messages.slice(0, -1), { ...last, tool_calls: [...last.tool_calls, call] }] };
    }
    case 'tool_call_finished':
      return add({ role: 'tool', tool_call_id: data.id, content: data.content });
    case 'message_queued':
      return add({ role: 'user', content: data.content });
    case 'approval_requested':
      return note(`${data.approval.toolName} (${data.approval.id}) waits for a decision.`);
    case 'approval_decided':
    case 'approval_timed_out': {
      const { entry } = data;
      const by = entry.approver ? ` by ${entry.approver}` : '';
      // Passed on to the sub-agent that owns the call, which may still refuse it: an `approval_noted` says which.
      if (entry.outcome === 'forwarded')
        return note(`${entry.toolName} (${entry.id}) ${entry.type}${by}, passed on to ${entry.forwardedTo}.`);
      return note(`${entry.toolName} (${entry.id}) ${DECIDED[entry.type] ?? entry.type}${by}.`);
    }
    case 'approval_noted':
      return note(`${data.entry.toolName} (${data.entry.id}): ${data.entry.message}`);
    case 'run_finished':
    case 'run_failed':
      return { ...add(endNote(data.status, data.error ?? endedText(data.ended))), status: data.status, live: undefined };
    default:
      return view;
  }
}

/** How often the run is asked for again while it is open: a run can get stuck while someone looks at it. */
const RUN_POLL_MS = 5000;

/**
 * Polls in a row that find the run closed while its stream has not said so, before the page stops waiting for the
 * stream. The stream's `end` comes a moment after the run closes (the API checks for that every 5 s); a stream that
 * has not brought it 10–15 s later is cut somewhere between the run and this page, and the page would say "live" for
 * a run that has ended.
 */
export const CLOSED_POLLS_BEFORE_GIVING_UP = 3;

/**
 * What a poll's answer changes. While the run is open: its state, and its transcript too once the stream is not
 * followed. `closedPolls` is how many polls in a row found the run closed: after CLOSED_POLLS_BEFORE_GIVING_UP, a
 * stream still followed is given up, and the run's own state, as it ended, replaces what the stream had brought.
 */
export function afterPoll(state, run, closedPolls) {
  if (state.following && closedPolls >= CLOSED_POLLS_BEFORE_GIVING_UP) return { run, view: viewOf(run), following: false };
  return OPEN.has(state.run?.status) ? { run, ...(!state.following && { view: viewOf(run) }) } : {};
}

/**
 * The run of `approval`, live. `{workflowId, run?, view?, error?, following, reload}`: `following` while events
 * arrive. The run's state is also asked for again every few seconds while it is open, for what the stream cannot
 * say (a run that stopped moving is stuck: `run.problem`; a run that ended while its stream was cut; a stream that
 * hangs while the run moves on, which is then reconnected), and at once on `reload()`.
 * @param {{run: Function, events: Function}} api
 */
export function useLiveRun(api, approval) {
  const workflowId = approval?.workflowId;
  const [state, setState] = useState({ workflowId: undefined });
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    if (!workflowId) return undefined;
    let current = true;
    let stream;
    const update = (change) => current && setState((s) => (s.workflowId === workflowId ? { ...s, ...change(s) } : s));
    api
      .run(workflowId)
      .then((run) => {
        if (!current) return;
        const following = run.streamOffset !== undefined && OPEN.has(run.status);
        setState({ workflowId, run, view: viewOf(run), following });
        if (!following) return;
        stream = followRun(api, workflowId, run.streamOffset, {
          onItem: (item) => update((s) => ({ view: applyItem(s.view, item) })),
          onEnd: () => update(() => ({ following: false })),
          onError: () => update(() => ({ following: false })),
        });
      })
      .catch((error) => current && setState({ workflowId, error: describeRefusal(error) }));
    let closedPolls = 0;
    let lastPoll = {};
    const poll = setInterval(() => {
      api.run(workflowId).then(
        (run) => {
          closedPolls = OPEN.has(run.status) ? 0 : closedPolls + 1;
          if (closedPolls >= CLOSED_POLLS_BEFORE_GIVING_UP) stream?.stop();
          else if (stream && closedPolls === 0 && streamStalled(lastPoll, stream.next())) stream.reconnect();
          lastPoll = { headAtLastPoll: run.streamOffset, nextAtLastPoll: stream?.next() };
          update((s) => afterPoll(s, run, closedPolls));
        },
        () => {},
      );
    }, RUN_POLL_MS);
    return () => {
      current = false;
      clearInterval(poll);
      stream?.stop();
    };
  }, [api, workflowId, loads]);
  const reload = () => setLoads((n) => n + 1);
  return state.workflowId === workflowId ? { ...state, reload } : { workflowId, reload };
}
