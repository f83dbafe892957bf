/** Percentiles and summaries. Percentiles interpolate linearly between order statistics (R's type 7). */
export interface Stats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export function summarize(values: readonly number[]): Stats {
  if (values.length === 0) throw new Error('no samples to summarize');
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    mean: round(sorted.reduce((s, v) => s + v, 0) / sorted.length),
    min: round(sorted[0]!),
    max: round(sorted.at(-1)!),
  };
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * The 95% bootstrap interval of percentile(a, p) ÷ percentile(b, p): each series resampled with replacement
 * `resamples` times, independently (the two were sampled alike but are not paired). Seeded, so the same samples give
 * the same interval on every render. It says how far sampling noise alone moves a ratio measured once; it cannot see
 * what moves a whole run (a busier machine that day).
 */
export function ratioInterval(a: readonly number[], b: readonly number[], p: number, resamples = 2000, seed = 1): [number, number] {
  if (a.length === 0 || b.length === 0) throw new Error('no samples to resample');
  const random = mulberry32(seed);
  const resample = (values: readonly number[]) =>
    percentile(
      Array.from({ length: values.length }, () => values[Math.floor(random() * values.length)]!).sort((x, y) => x - y),
      p,
    );
  const ratios = Array.from({ length: resamples }, () => resample(a) / resample(b)).sort((x, y) => x - y);
  return [round(percentile(ratios, 2.5), 3), round(percentile(ratios, 97.5), 3)];
}

/** A small seeded PRNG (mulberry32), uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** percentile(a, p) ÷ percentile(b, p), on the samples themselves, unrounded. */
export function exactRatio(a: readonly number[], b: readonly number[], p: number): number {
  const sorted = (values: readonly number[]) => [...values].sort((x, y) => x - y);
  return percentile(sorted(a), p) / percentile(sorted(b), p);
}

/** Whether exactRatio is at most `limit`: a verdict on the rounded figures would pass 1.1004 as 1.1 (it did, once). */
export function withinRatio(a: readonly number[], b: readonly number[], p: number, limit: number): boolean {
  return exactRatio(a, b, p) <= limit;
}

export function ratio(a: number, b: number): number {
  return b === 0 ? Infinity : round(a / b, 3);
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Least-squares line through (x, y). */
export function linearFit(xs: readonly number[], ys: readonly number[]): { intercept: number; slope: number } {
  const n = xs.length;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  return { intercept: my - slope * mx, slope };
}
