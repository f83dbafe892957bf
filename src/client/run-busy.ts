/**
 * Updates a run refused as busy (`RunBusy`, src/contract/refusal-codes.ts) are sent again: the run refuses them only
 * in the one activation that applies a local activity's result that came late, so the next try is taken.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { RUN_BUSY_TYPE } from '../contract/refusal-codes.js';

/** Pauses before each new try: about 3 s in all, many workflow tasks on a loaded worker. */
const PAUSES_MS = [50, 100, 200, 400, 800, 1600];

export function isRunBusy(err: unknown): boolean {
  return err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === RUN_BUSY_TYPE;
}

/** `send`, tried again while the run refuses it as busy; the last refusal is thrown if it never stops. */
export async function sendWhileBusy<T>(send: () => Promise<T>): Promise<T> {
  for (const pauseMs of PAUSES_MS) {
    try {
      return await send();
    } catch (err) {
      if (!isRunBusy(err)) throw err;
      await sleep(pauseMs);
    }
  }
  return send();
}
