/**
 * bench/stats.ts: the bootstrap interval a ratio of percentiles is reported with (RESULTS.md, the decision target).
 * Pure: no server.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentile, ratio, ratioInterval, withinRatio } from '../../bench/stats.js';

const sortedCopy = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const sample = fc.array(fc.double({ min: 1, max: 1000, noNaN: true }), { minLength: 1, maxLength: 60 });

describe('ratioInterval', () => {
  it('is an ordered pair that lies within the ratios resampling can reach', () => {
    fc.assert(
      fc.property(sample, sample, fc.constantFrom(50, 90, 99), (a, b, p) => {
        const [lo, hi] = ratioInterval(a, b, p, 200);
        expect(lo).toBeLessThanOrEqual(hi);
        // No resample's percentile leaves the range of its series.
        expect(lo).toBeGreaterThanOrEqual(Math.min(...a) / Math.max(...b) - 0.001);
        expect(hi).toBeLessThanOrEqual(Math.max(...a) / Math.min(...b) + 0.001);
      }),
      { numRuns: 100 },
    );
  });

  it('is the same for the same samples (seeded), and narrows as the samples grow', () => {
    const noisy = (n: number, seed: number) => Array.from({ length: n }, (_, i) => 10 + ((i * 7919 + seed * 104729) % 97) / 10);
    expect(ratioInterval(noisy(50, 1), noisy(50, 2), 50)).toEqual(ratioInterval(noisy(50, 1), noisy(50, 2), 50));
    const width = ([lo, hi]: [number, number]) => hi - lo;
    expect(width(ratioInterval(noisy(800, 1), noisy(800, 2), 50))).toBeLessThan(width(ratioInterval(noisy(20, 1), noisy(20, 2), 50)));
  });

  it('holds the measured ratio for two like series, and leaves 1 out when one series is 20% slower', () => {
    const base = Array.from({ length: 400 }, (_, i) => 15 + ((i * 37) % 100) / 20);
    const measured = percentile(sortedCopy(base), 50) / percentile(sortedCopy(base), 50);
    const [lo, hi] = ratioInterval(base, base, 50);
    expect(lo).toBeLessThanOrEqual(measured);
    expect(hi).toBeGreaterThanOrEqual(measured);
    const [slowLo] = ratioInterval(
      base.map((v) => v * 1.2),
      base,
      50,
    );
    expect(slowLo).toBeGreaterThan(1);
  });
});

describe('withinRatio', () => {
  it('judges the samples, not their rounded ratio', () => {
    // 24.635 ÷ 22.388 = 1.1004, which rounds to 1.1.
    expect(ratio(24.635, 22.388)).toBe(1.1);
    expect(withinRatio([24.635], [22.388], 50, 1.1)).toBe(false);
    expect(withinRatio([24.6, 30, 20], [22.388, 40, 10], 50, 1.1)).toBe(true);
  });

  it('agrees with the percentiles it compares', () => {
    fc.assert(
      fc.property(sample, sample, fc.constantFrom(50, 99), fc.double({ min: 0.5, max: 2, noNaN: true }), (a, b, p, limit) => {
        const exact = percentile(sortedCopy(a), p) / percentile(sortedCopy(b), p);
        expect(withinRatio(a, b, p, limit)).toBe(exact <= limit);
      }),
      { numRuns: 200 },
    );
  });
});
