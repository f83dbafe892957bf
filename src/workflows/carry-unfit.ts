/**
 * Where this run's state last did not fit in the next run's input (module state is per run): continue-as-new.ts
 * notes it and decides from it when to try again; the run's state and the Temporal UI's current details show it.
 */
import { LIMITS } from '../contract/limits.js';
import type { RunState } from '../schemas/run-state.js';

export interface UnfitPlace {
  historyLength: number;
  step: number;
  /** The calls the step had open. */
  openCalls: number;
  bytes: number;
}

let unfitAt: UnfitPlace | undefined;

export function noteUnfit(place: UnfitPlace): void {
  unfitAt = place;
}

export function unfitPlace(): UnfitPlace | undefined {
  return unfitAt;
}

/** The last time this run's state did not fit in the next run's input, for views: how large it was, and when. */
export function lastUnfitCarry(): RunState['carryUnfit'] {
  return unfitAt && { bytes: unfitAt.bytes, limit: LIMITS.carriedInputBytes, historyLength: unfitAt.historyLength };
}
