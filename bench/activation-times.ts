/**
 * The decision's activation, timed inside the worker (bench/activation-times.cjs writes the lines): how long the
 * sandbox took over it, how many promises it made there, and how long the worker's main thread took over the whole
 * of it, per side. It tells what of the decision task's gap to the floor is the workflow code, and what is not.
 */
import { median, summarize, type Stats } from './stats.js';

export interface ActivationTimes {
  /** The SDK's activate() in the workflow thread, µs. */
  sandbox: Stats;
  /** The worker's handling of the activation on its main thread (it includes the sandbox's), µs. */
  worker: Stats;
  /** Promises made in the sandbox while it ran, at the median. */
  promises: number;
}

/**
 * Each side's activations, by the task queue its worker polls. A run's sandbox lines are matched to its side by the
 * run id its worker line names; an activation seen on one thread only is left out.
 */
export function activationTimes(lines: string, queues: Record<string, string>): Record<string, ActivationTimes> {
  const sideOfRun = new Map<string, string>();
  const worker = new Map<string, number[]>();
  const sandbox = new Map<string, { us: number[]; promises: number[] }>();
  const rows = lines.split('\n').map((line) => line.trim().split(/\s+/));
  for (const [where, queue, runId, us] of rows) {
    if (where !== 'worker') continue;
    const side = Object.keys(queues).find((name) => queues[name] === queue);
    if (!side || !runId) continue;
    sideOfRun.set(runId, side);
    worker.set(side, [...(worker.get(side) ?? []), Number(us)]);
  }
  for (const [where, runId, us, promises] of rows) {
    const side = where === 'sandbox' && runId ? sideOfRun.get(runId) : undefined;
    if (!side) continue;
    const times = sandbox.get(side) ?? { us: [], promises: [] };
    times.us.push(Number(us));
    times.promises.push(Number(promises));
    sandbox.set(side, times);
  }
  const result: Record<string, ActivationTimes> = {};
  for (const side of Object.keys(queues)) {
    const inSandbox = sandbox.get(side);
    const onWorker = worker.get(side);
    if (!inSandbox || !onWorker) continue;
    result[side] = { sandbox: summarize(inSandbox.us), worker: summarize(onWorker), promises: median(inSandbox.promises) };
  }
  return result;
}
