import { describe, expect, it } from 'vitest';
import type { RunEvent, RunStreamItem } from '../../../schemas/run-event.js';
import { WatchPrinter } from './watch.js';

const token = (offset: number, step: number, attempt: number, seq: number, text: string): RunStreamItem => ({
  offset,
  topic: 'tokens',
  token: { step, attempt, seq, text },
});
const event = (offset: number, e: RunEvent): RunStreamItem => ({ offset, topic: 'events', event: e });

function printed(items: RunStreamItem[]): string {
  let out = '';
  const printer = new WatchPrinter((chunk) => (out += chunk));
  for (const item of items) printer.print(item);
  printer.finish();
  // No colours: NO_COLOR is not set in the unit project, so strip them.
  return out.replace(/\x1b\[[0-9;]*m/g, '');
}

describe('hitl watch output', () => {
  it("prints the model's text as it comes, once, and the reply only when it was not streamed", () => {
    expect(
      printed([
        event(0, { type: 'step_started', step: 1 }),
        token(1, 1, 1, 0, 'Hello, '),
        token(2, 1, 1, 1, 'world.'),
        event(3, { type: 'model_replied', step: 1, content: 'Hello, world.' }),
        event(4, { type: 'step_started', step: 2 }),
        event(5, { type: 'model_replied', step: 2, content: 'Not streamed.' }),
      ]),
    ).toBe('step 1\nmodel: Hello, world.\nstep 2\nmodel: Not streamed.\n');
  });

  it('marks a retried model call and starts its text over; a late batch of the failed attempt is dropped', () => {
    expect(
      printed([
        token(0, 1, 1, 0, 'The an'),
        token(1, 1, 2, 0, 'The answer.'),
        token(2, 1, 1, 1, 'swer that failed'),
        event(3, { type: 'model_replied', step: 1, content: 'The answer.' }),
      ]),
    ).toBe('model: The an\n(the model call was retried: attempt 2 starts over)\nmodel: The answer.\n');
  });

  it('closes an open line of text before the next event, and at the end', () => {
    expect(printed([token(0, 1, 1, 0, 'Half'), event(1, { type: 'run_failed', status: 'Canceled' })])).toBe('model: Half\nCanceled\n');
    expect(printed([token(0, 1, 1, 0, 'Cut off')])).toBe('model: Cut off\n');
  });

  it('indents the later lines of streamed text, and a reply that ends in a newline leaves no indented blank line', () => {
    expect(
      printed([
        token(0, 1, 1, 0, 'First line\n'),
        token(1, 1, 1, 1, 'second line\n'),
        event(2, { type: 'model_replied', step: 1, content: 'First line\nsecond line\n' }),
        event(3, { type: 'step_started', step: 2 }),
      ]),
    ).toBe('model: First line\n  second line\nstep 2\n');
  });
});
