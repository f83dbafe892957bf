import { describe, expect, it } from 'vitest';
import { POLL_INTERVAL_MS, pollUntil } from './poll-until.js';

/** An ask that answers 0, 1, 2, … and counts how often it was asked. */
function counter() {
  let asked = 0;
  return { ask: async () => asked++, asked: () => asked };
}

describe('pollUntil', () => {
  it('asks again until the answer is done, and returns that answer', async () => {
    const c = counter();
    const started = Date.now();
    expect(await pollUntil(c.ask, (n) => n === 2, 10_000)).toBe(2);
    expect(c.asked()).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * POLL_INTERVAL_MS - 20);
  });

  it('asks once when there is no time to wait, and returns the answer even though it is not done', async () => {
    const c = counter();
    expect(await pollUntil(c.ask, () => false, 0)).toBe(0);
    expect(c.asked()).toBe(1);
  });

  it('stops at the deadline with the last answer, not sleeping past it', async () => {
    const c = counter();
    const started = Date.now();
    const last = await pollUntil(c.ask, () => false, 700);
    const took = Date.now() - started;
    expect(last).toBe(c.asked() - 1);
    expect(c.asked()).toBe(3); // at 0, 500 and 700 ms
    expect(took).toBeGreaterThanOrEqual(690);
    expect(took).toBeLessThan(700 + POLL_INTERVAL_MS);
  });

  it('stops at once when the caller is gone, mid-sleep', async () => {
    const c = counter();
    const gone = new AbortController();
    setTimeout(() => gone.abort(), 100);
    const started = Date.now();
    await pollUntil(c.ask, () => false, 60_000, gone.signal);
    expect(Date.now() - started).toBeLessThan(POLL_INTERVAL_MS);
    expect(c.asked()).toBe(2);
  });
});
