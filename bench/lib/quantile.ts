/**
 * The one definition of a quantile in the benchmarks: by nearest rank, the ⌈q·n⌉-th smallest value
 * (the p99 of 100 samples is the second-slowest; the maximum only below 100 samples). Before
 * 2026-11-30 `quantile` took the ⌊q·n⌋+1-th value, so the "p99" of bench:api's 100 core samples
 * was their maximum.
 */

/** The `q` quantile of ascending `sorted` by nearest rank (the ⌈q·n⌉-th value); 0 when empty. */
export function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];
}

/** The `q` quantile of `values` by nearest rank ({@link nearestRank}); sorts `values` in place. */
export function quantile(values: number[], q: number): number {
  values.sort((a, b) => a - b);
  return nearestRank(values, q);
}
