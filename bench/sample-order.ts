/**
 * The order the decision-latency scenario takes its samples in (bench/scenarios/latency.ts). Every series follows
 * every series (itself included) equally often, in an order that is otherwise random (seeded): periods of k² samples
 * for k series, each an Euler circuit through every ordered pair of series once.
 *
 * Why: a decision's latency depends on the sample taken just before it. By hand on 2026-11-30 (three runs of
 * `npm run bench:decision -- --all-series` in this order, 33 or 34 samples for each predecessor), ours took 11.8 to
 * 13.7 ms at p50 right after one of ours and 12.9 to 14.4 after one of the floor's, and both sides were slowest after
 * LangGraph's in two of the three runs (and in the committed full run). The bench used to take the series in a fixed cycle
 * (`cycleOrder`), which gives each series the same predecessor sample after sample: the floor's update came right
 * after ours, and ours after the OpenAI Agents pattern. Alternating the two orders, three runs each, the cycle gave
 * ours ÷ floor 1.166× to 1.195× at p50 and this order 1.121× to 1.132× (`npm run bench:decision -- --all-series
 * [--order cycle]`). RESULTS.md gives the split by predecessor of the committed run.
 */
import { mulberry32 } from './stats.js';

/**
 * A closed walk over k series that takes every ordered pair of them (a series to itself included) exactly once:
 * k² steps from series 0, each series k times, the last step leading back to series 0. Hierholzer's algorithm over
 * the complete directed graph with loops, each series' next steps shuffled by `random`.
 */
export function pairCircuit(k: number, random: () => number): number[] {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`pairCircuit needs a whole number of series ≥ 1, not ${k}`);
  const unused = Array.from({ length: k }, () =>
    shuffled(
      Array.from({ length: k }, (_, v) => v),
      random,
    ),
  );
  const stack = [0];
  const walk: number[] = [];
  while (stack.length > 0) {
    const next = unused[stack.at(-1)!]!.pop();
    if (next === undefined) walk.push(stack.pop()!);
    else stack.push(next);
  }
  // Hierholzer's walk comes out backwards and closed (k² + 1 series, from 0 back to 0): the last 0 starts the next period.
  return walk.reverse().slice(0, -1);
}

function shuffled(values: number[], random: () => number): number[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
  return values;
}

/**
 * The series to sample at each step, as indices into the list of series: `perSeries` samples of each of `series`
 * series, in periods of pairCircuit(series), a new random one each period (seeded: the same order every run). A
 * series that has all its samples is skipped, so only the last, partial period can leave the pairs uneven.
 */
export function sampleOrder(series: number, perSeries: number, seed = 1): number[] {
  const random = mulberry32(seed);
  const taken = new Array<number>(series).fill(0);
  const order: number[] = [];
  while (order.length < series * perSeries) {
    for (const s of pairCircuit(series, random)) {
      if (taken[s]! >= perSeries) continue;
      taken[s]!++;
      order.push(s);
    }
  }
  return order;
}

/** The order the bench used before sampleOrder: round after round, every series once, the round's start moved on by one. */
export function cycleOrder(series: number, perSeries: number): number[] {
  return Array.from({ length: perSeries }, (_, round) => Array.from({ length: series }, (_, k) => (k + round) % series)).flat();
}

export const SAMPLE_ORDERS = { balanced: sampleOrder, cycle: cycleOrder } as const;
export type SampleOrderName = keyof typeof SAMPLE_ORDERS;
