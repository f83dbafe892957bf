/**
 * Workflows that each lean on one of the server's task queues, for `npm run bench:throttles`: the floor's steps
 * (transfer queue: every workflow and activity task is dispatched through it), sequential timers (timer queue),
 * and search-attribute upserts made visible one after another (visibility queue).
 */
import { condition, defineSignal, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import { HitlPendingCount } from '../../src/contract/search-attributes.js';

export { floorStepsWorkflow } from '../floor/workflows.js';

/** `timers` one-millisecond timers in sequence: each fires from the timer queue, then a workflow task runs. */
export async function throttleTimersWorkflow(timers: number): Promise<number> {
  for (let i = 0; i < timers; i++) await sleep(1);
  return timers;
}

export const throttleUpsertSignal = defineSignal<[number]>('upsert');

/** Upserts HitlPendingCount to each value it is signalled, until it has been signalled `upserts` times. */
export async function throttleVisibilityWorkflow(upserts: number): Promise<number> {
  let received = 0;
  let last = -1;
  setHandler(throttleUpsertSignal, (value) => {
    received++;
    last = value;
  });
  let upserted = 0;
  while (upserted < upserts) {
    await condition(() => received > upserted);
    upserted = received;
    upsertSearchAttributes([{ key: HitlPendingCount, value: last }]);
  }
  return upserted;
}
