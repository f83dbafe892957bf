/**
 * The inbox's live transcript (src/api/inbox/public/js/live-run.js, browser code) as a pure function of the stream's
 * items: text grows, a retried model call starts over, the step's reply replaces the text, events become messages.
 * And what the page's poll of the run changes, a stream that never brings the run's end included, and how the page
 * follows a stream: a connection that hangs is replaced at once, resuming after the last item it brought.
 */
import { describe, expect, it } from 'vitest';

// Browser code, without types: loaded by path so the type checker leaves it alone.
const LIVE_RUN = '../../src/api/inbox/public/js/live-run.js';
const { applyItem, viewOf, afterPoll, followRun, streamStalled, CLOSED_POLLS_BEFORE_GIVING_UP } = (await import(LIVE_RUN)) as {
  followRun(api: FakeApi, workflowId: string, from: number, handlers: Record<string, (value?: unknown) => void>): Following;
  streamStalled(lastPoll: { headAtLastPoll?: number; nextAtLastPoll?: number }, next: number): boolean;
  viewOf(run: unknown): any;
  applyItem(view: unknown, item: { topic: string; data: unknown }): any;
  afterPoll(state: unknown, run: unknown, closedPolls: number): any;
  CLOSED_POLLS_BEFORE_GIVING_UP: number;
};

interface Following {
  stop(): void;
  reconnect(): void;
  next(): number;
}
interface EventsOptions {
  from?: number;
  lastEventId?: string;
  signal: AbortSignal;
}
interface FakeApi {
  events(workflowId: string, options: EventsOptions): Promise<Response>;
}

const token = (step: number, attempt: number, text: string) => ({ topic: 'tokens', data: { step, attempt, seq: 0, text } });
const event = (data: Record<string, unknown>) => ({ topic: 'events', data });
const start = () => viewOf({ status: 'Running', messages: [{ role: 'user', content: 'hi' }] });
const apply = (...items: { topic: string; data: unknown }[]) => items.reduce((view, item) => applyItem(view, item), start());

describe('the live transcript', () => {
  it('grows the text of a step, and replaces it with the reply', () => {
    const writing = apply(token(1, 1, 'Hel'), token(1, 1, 'lo'));
    expect(writing.live).toEqual({ step: 1, attempt: 1, text: 'Hello' });
    const replied = applyItem(writing, event({ type: 'model_replied', step: 1, content: 'Hello' }));
    expect(replied.live).toBeUndefined();
    expect(replied.messages.at(-1)).toEqual({ role: 'assistant', content: 'Hello', tool_calls: [] });
  });

  it("starts over on a retried call's text and drops what the failed attempt sends late", () => {
    expect(apply(token(1, 1, 'The an'), token(1, 2, 'The'), token(1, 1, 'swer'), token(1, 2, ' answer')).live).toEqual({
      step: 1,
      attempt: 2,
      text: 'The answer',
    });
  });

  it('puts proposed calls on the reply, results and decisions after it, and the end', () => {
    const view = apply(
      event({ type: 'model_replied', step: 1, content: null }),
      event({ type: 'tool_call_proposed', step: 1, id: 'call-1', toolName: 'write_file', arguments: '{}' }),
      event({ type: 'approval_decided', entry: { id: 'call-1', toolName: 'write_file', type: 'approve', approver: 'bob' } }),
      event({ type: 'tool_call_finished', id: 'call-1', content: 'Wrote 1 byte.' }),
      event({ type: 'message_queued', content: 'and then?', queued: 1 }),
      event({ type: 'run_finished', status: 'Completed', output: 'done', steps: 1, usage: {} }),
    );
    expect(view.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call-1', function: { name: 'write_file', arguments: '{}' } }] },
      { role: 'note', content: 'write_file (call-1) approved by bob.' },
      { role: 'tool', tool_call_id: 'call-1', content: 'Wrote 1 byte.' },
      { role: 'user', content: 'and then?' },
      { role: 'note', content: 'The run ended: Completed.' },
    ]);
    expect(view.status).toBe('Completed');
  });

  it("says a sub-agent's decision was passed on, then what the sub-agent did with it", () => {
    const passed = {
      id: 'call-1/call-1',
      toolName: 'write_file',
      type: 'approve',
      approver: 'pat',
      outcome: 'forwarded',
      forwardedTo: 'r/call-1',
    };
    const refused = { ...passed, outcome: 'noted', event: 'forward_refused', message: 'sub-agent r/call-1 refused the decision: late' };
    const view = apply(event({ type: 'approval_decided', entry: passed }), event({ type: 'approval_noted', entry: refused }));
    expect(view.messages.slice(1)).toEqual([
      { role: 'note', content: 'write_file (call-1/call-1) approve by pat, passed on to r/call-1.' },
      { role: 'note', content: 'write_file (call-1/call-1): sub-agent r/call-1 refused the decision: late' },
    ]);
  });

  it('says that a run ended when its state says so, as its stream would (a failure with the error)', () => {
    const messages = [{ role: 'user', content: 'hi' }];
    expect(viewOf({ status: 'Completed', messages }).messages).toEqual([
      ...messages,
      { role: 'note', content: 'The run ended: Completed.' },
    ]);
    expect(viewOf({ status: 'Failed', error: 'the model refused', messages }).messages.at(-1)).toEqual({
      role: 'note',
      content: 'The run ended: Failed (the model refused).',
    });
    expect(
      applyItem(viewOf({ status: 'Running', messages }), event({ type: 'run_failed', status: 'Failed', error: 'the model refused' })),
    ).toEqual(viewOf({ status: 'Failed', error: 'the model refused', messages }));
    expect(viewOf({ status: 'AwaitingApproval', messages }).messages).toEqual(messages);
  });

  it('says how a session ended, from its state and from its stream alike', () => {
    const messages = [{ role: 'user', content: 'hi' }];
    const ended = { by: 'request', reason: 'by sam over HTTP: done' };
    const fromState = viewOf({ status: 'Ended', messages, result: { status: 'Ended', output: '', ended } });
    expect(fromState.messages.at(-1)).toEqual({ role: 'note', content: 'The run ended: Ended (end requested: by sam over HTTP: done).' });
    const finished = { type: 'run_finished', status: 'Ended', output: '', steps: 1, usage: {}, ended };
    expect(applyItem(viewOf({ status: 'AwaitingMessage', messages }), event(finished))).toEqual(fromState);
    const idle = { by: 'idle', reason: 'no message came for 7d' };
    expect(viewOf({ status: 'Ended', messages, result: { status: 'Ended', output: '', ended: idle } }).messages.at(-1)).toEqual({
      role: 'note',
      content: 'The run ended: Ended (no message came for 7d).',
    });
  });
});

describe("the page's poll of the run", () => {
  const open = { status: 'Running', messages: [{ role: 'user', content: 'hi' }] };
  const ended = { status: 'Completed', messages: [...open.messages, { role: 'assistant', content: 'done' }] };
  const streamed = applyItem(viewOf(open), event({ type: 'approval_requested', approval: { toolName: 'write_file', id: 'call-1' } }));

  it("takes the run's state, and leaves the transcript to the stream it follows", () => {
    const following = { run: open, view: streamed, following: true };
    expect(afterPoll(following, open, 0)).toEqual({ run: open });
    // The run closed: the stream's end is still to come, so the page goes on following it.
    for (let polls = 1; polls < CLOSED_POLLS_BEFORE_GIVING_UP; polls++) expect(afterPoll(following, ended, polls)).toEqual({ run: ended });
  });

  it("gives up a stream that has not brought the run's end, and shows the run as it ended", () => {
    const following = { run: ended, view: streamed, following: true };
    expect(afterPoll(following, ended, CLOSED_POLLS_BEFORE_GIVING_UP)).toEqual({ run: ended, view: viewOf(ended), following: false });
  });

  it('takes the transcript from the run when no stream is followed, until the run has ended', () => {
    expect(afterPoll({ run: open, view: viewOf(open), following: false }, ended, 1)).toEqual({ run: ended, view: viewOf(ended) });
    expect(afterPoll({ run: ended, view: viewOf(ended), following: false }, ended, 5)).toEqual({});
  });
});

describe('following the stream', () => {
  const sse = (...lines: string[]) => new TextEncoder().encode(lines.join('\n') + '\n\n');
  const item = (offset: number) => sse(`id: ${offset}`, 'event: events', `data: {"type":"status_changed","status":"Running"}`);
  /** A response that sends `chunks`, then hangs until its request is aborted (what a stalled proxy looks like). */
  const hanging = (signal: AbortSignal, ...chunks: Uint8Array[]) =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
        },
      }),
    );

  it('stalls only when the run had written, at the last poll, what the stream has not brought since', () => {
    expect(streamStalled({}, 3)).toBe(false);
    expect(streamStalled({ headAtLastPoll: 3, nextAtLastPoll: 3 }, 3)).toBe(false);
    expect(streamStalled({ headAtLastPoll: 3, nextAtLastPoll: 2 }, 4)).toBe(false);
    expect(streamStalled({ headAtLastPoll: 4, nextAtLastPoll: 3 }, 3)).toBe(true);
    // Still bringing items, though behind: left alone.
    expect(streamStalled({ headAtLastPoll: 9, nextAtLastPoll: 3 }, 5)).toBe(false);
  });

  it('replaces a connection that hangs at once, after the last item it brought', async () => {
    const requests: EventsOptions[] = [];
    const api: FakeApi = {
      async events(_workflowId, options) {
        requests.push(options);
        if (requests.length === 1) return hanging(options.signal, item(5), item(6));
        return new Response(sse('id: 7', 'event: events', 'data: {"type":"run_finished","status":"Completed"}'));
      },
    };
    const items: { offset: number }[] = [];
    let following!: Following;
    const ended = new Promise((resolve, reject) => {
      following = followRun(api, 'wf', 5, { onItem: (i) => items.push(i as { offset: number }), onEnd: resolve, onError: reject });
    });
    await expect.poll(() => items.length).toBe(2);
    expect(following.next()).toBe(7);
    // The run has written offset 7 and the stream hangs: the page reconnects, with no back-off.
    expect(streamStalled({ headAtLastPoll: 8, nextAtLastPoll: 7 }, following.next())).toBe(true);
    const reconnectedAt = performance.now();
    following.reconnect();
    await expect.poll(() => items.length).toBe(3);
    expect(performance.now() - reconnectedAt).toBeLessThan(900);
    expect(requests.map(({ from, lastEventId }) => ({ from, lastEventId }))).toEqual([
      { from: 5, lastEventId: undefined },
      { from: undefined, lastEventId: '6' },
    ]);
    expect(requests[0]!.signal.aborted).toBe(true);
    expect(items.map((i) => i.offset)).toEqual([5, 6, 7]);
    expect(following.next()).toBe(8);
    following.stop();
    expect(requests[1]!.signal.aborted).toBe(true);
    void ended;
  });

  it('asks from the start again when the hanging connection brought nothing', async () => {
    const requests: EventsOptions[] = [];
    const api: FakeApi = {
      events(_workflowId, options) {
        requests.push(options);
        // Not even the response's headers: a request that never got its answer.
        if (requests.length === 1)
          return new Promise((_, reject) =>
            options.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          );
        return Promise.resolve(new Response(sse('event: end', 'data: {}')));
      },
    };
    let following!: Following;
    const ended = new Promise((resolve, reject) => {
      following = followRun(api, 'wf', 3, { onItem: () => {}, onEnd: resolve, onError: reject });
    });
    await expect.poll(() => requests.length).toBe(1);
    following.reconnect();
    await ended;
    expect(requests.map(({ from, lastEventId }) => ({ from, lastEventId }))).toEqual([
      { from: 3, lastEventId: undefined },
      { from: 3, lastEventId: undefined },
    ]);
    // A stream that has ended is not reconnected.
    following.reconnect();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(2);
  });
});
