/**
 * bench/sample-order.ts: the order the decision-latency samples are taken in, so that every series follows every
 * series equally often. Pure: no server.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cycleOrder, pairCircuit, sampleOrder } from '../../bench/sample-order.js';
import { mulberry32 } from '../../bench/stats.js';

/** How often each ordered pair `a → b` occurs as neighbours in `seq` (read cyclically when `cyclic`). */
function pairCounts(seq: readonly number[], cyclic: boolean): Map<string, number> {
  const counts = new Map<string, number>();
  const last = cyclic ? seq.length : seq.length - 1;
  for (let i = 0; i < last; i++) {
    const key = `${seq[i]}→${seq[(i + 1) % seq.length]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const allPairs = (k: number) => Array.from({ length: k * k }, (_, i) => `${Math.floor(i / k)}→${i % k}`);

describe('pairCircuit', () => {
  it('takes every ordered pair of k series exactly once, from series 0 back to it, whatever the shuffle', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer(), (k, seed) => {
        const walk = pairCircuit(k, mulberry32(seed));
        expect(walk).toHaveLength(k * k);
        expect(walk[0]).toBe(0);
        const counts = pairCounts(walk, true);
        expect([...counts.keys()].sort()).toEqual(allPairs(k).sort());
        expect(new Set(counts.values())).toEqual(new Set([1]));
      }),
    );
  });

  it('differs from seed to seed, and is the same for the same seed', () => {
    const walks = [1, 2, 3].map((seed) => pairCircuit(6, mulberry32(seed)).join(','));
    expect(new Set(walks).size).toBe(3);
    expect(pairCircuit(6, mulberry32(2)).join(',')).toBe(walks[1]);
  });

  it('refuses a count of series that is not a whole number of at least 1', () => {
    for (const k of [0, -1, 1.5, Number.NaN]) expect(() => pairCircuit(k, mulberry32(1))).toThrow(RangeError);
  });
});

describe('sampleOrder', () => {
  it('takes exactly perSeries samples of every series', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 300 }), (series, perSeries) => {
        const order = sampleOrder(series, perSeries);
        expect(order).toHaveLength(series * perSeries);
        for (let s = 0; s < series; s++) expect(order.filter((x) => x === s)).toHaveLength(perSeries);
      }),
    );
  });

  it('gives every series each predecessor equally often over whole periods', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 20 }), (series, periods) => {
        // perSeries = series × periods fills whole periods: every pair occurs `periods` times, the wrap included.
        const counts = pairCounts(sampleOrder(series, series * periods), true);
        expect(counts.size).toBe(series * series);
        expect(new Set(counts.values())).toEqual(new Set([periods]));
      }),
    );
  });

  it('keeps every series within a few samples of an even share of each predecessor in a partial last period', () => {
    // The full run's batch: six series, 210 samples each (35 whole periods); bench:decision's: two series, 210.
    for (const [series, perSeries] of [
      [6, 210],
      [6, 205],
      [2, 211],
      [4, 210],
    ] as const) {
      const counts = [...pairCounts(sampleOrder(series, perSeries), false).values()];
      expect(counts).toHaveLength(series * series);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(series);
    }
  });

  it('gives the floor every predecessor, where the old cycle put it after ours but where a round began with it', () => {
    const after = (order: number[], series: number) => new Set(order.flatMap((s, i) => (i > 0 && s === series ? [order[i - 1]] : [])));
    // Six series, 210 rounds: the floor's update (series 1) came after ours (0), save where a round began with it.
    expect(after(cycleOrder(6, 210), 1)).toEqual(new Set([0, 5]));
    expect(after(sampleOrder(6, 210), 1)).toEqual(new Set([0, 1, 2, 3, 4, 5]));
  });
});
