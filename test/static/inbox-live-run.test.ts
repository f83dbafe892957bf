/**
 * The inbox's live transcript (src/api/inbox/public/js/live-run.js, browser code) as a pure function of the stream's
 * items: text grows, a retried model call starts over, the step's reply replaces the text, events become messages.
 * And what the page's poll of the run changes, a stream that never brings the run's end included.
 */
import { describe, expect, it } from 'vitest';

// Browser code, without types: loaded by path so the type checker leaves it alone.
const LIVE_RUN = '../../src/api/inbox/public/js/live-run.js';
const { applyItem, viewOf, afterPoll, CLOSED_POLLS_BEFORE_GIVING_UP } = (await import(LIVE_RUN)) as {
  viewOf(run: unknown): any;
  applyItem(view: unknown, item: { topic: string; data: unknown }): any;
  afterPoll(state: unknown, run: unknown, closedPolls: number): any;
  CLOSED_POLLS_BEFORE_GIVING_UP: number;
};

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
