/** What a run whose state did not fit in the next run's input says about it, in `hitl show` and the Temporal UI. */
import type { RunState } from '../schemas/run-state.js';

export function carryUnfitNotice(unfit: NonNullable<RunState['carryUnfit']>): string {
  return (
    `Could not continue as new at event ${unfit.historyLength}: its state was ${unfit.bytes} bytes, over the limit of ${unfit.limit} ` +
    '(waiting calls, queued messages and the prompt cannot be shed). It goes on in this run and tries again at its next step.'
  );
}
