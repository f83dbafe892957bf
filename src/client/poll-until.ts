import { setTimeout as sleep } from 'node:timers/promises';

/** How often a client asks again while it waits for something to change: a run's view is a query, not a push. */
export const POLL_INTERVAL_MS = 500;

/**
 * `ask()`, asked again every half second until `done` holds for its answer, `waitMs` have passed or `gone` aborts
 * (an HTTP long poll's request signal: a dropped client must not keep asking). The last answer is returned either way.
 */
export async function pollUntil<T>(ask: () => Promise<T>, done: (answer: T) => boolean, waitMs: number, gone?: AbortSignal): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answer = await ask();
    if (done(answer) || Date.now() >= deadline || gone?.aborted) return answer;
    await sleep(Math.min(POLL_INTERVAL_MS, deadline - Date.now()), undefined, { signal: gone }).catch(() => {});
  }
}
