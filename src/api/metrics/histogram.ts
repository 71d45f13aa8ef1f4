/** A histogram as `/metrics` writes it (fact 98). */
export interface HistogramJson {
  readonly count: number;
  readonly min: number;
  readonly mean: number;
  readonly max: number;
  readonly p50: number;
  readonly p75: number;
  readonly p95: number;
  readonly p98: number;
  readonly p99: number;
  readonly p999: number;
  readonly stddev: number;
}

/** Samples kept (Dropwizard's default reservoir size). */
export const HISTOGRAM_WINDOW = 1028;

/**
 * A histogram of values: `count` and `sum` over every value recorded, and the distribution
 * (min, mean, max, quantiles, standard deviation) over the last {@link HISTOGRAM_WINDOW} values,
 * a sliding window instead of Dropwizard's exponentially decaying reservoir (simpler, and recent
 * values dominate in both).
 */
export class Histogram {
  count = 0;
  sum = 0;
  private readonly window = new Float64Array(HISTOGRAM_WINDOW);
  private next = 0;

  update(value: number): void {
    this.window[this.next] = value;
    this.next = (this.next + 1) % HISTOGRAM_WINDOW;
    this.count++;
    this.sum += value;
  }

  json(): HistogramJson {
    const values = this.window.slice(0, Math.min(this.count, HISTOGRAM_WINDOW)).sort();
    const n = values.length;
    const mean = n === 0 ? 0 : values.reduce((a, b) => a + b, 0) / n;
    return {
      count: this.count,
      min: n === 0 ? 0 : values[0],
      mean,
      max: n === 0 ? 0 : values[n - 1],
      p50: quantile(values, 0.5),
      p75: quantile(values, 0.75),
      p95: quantile(values, 0.95),
      p98: quantile(values, 0.98),
      p99: quantile(values, 0.99),
      p999: quantile(values, 0.999),
      stddev: stddev(values, mean),
    };
  }
}

/** The q-quantile of sorted values, interpolating between the neighbours of position q·(n+1). */
export function quantile(sorted: Float64Array, q: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const pos = q * (n + 1);
  const index = Math.floor(pos);
  if (index < 1) return sorted[0];
  if (index >= n) return sorted[n - 1];
  const lower = sorted[index - 1];
  return lower + (pos - index) * (sorted[index] - lower);
}

/** Sample standard deviation (0 for fewer than two values). */
function stddev(values: Float64Array, mean: number): number {
  if (values.length < 2) return 0;
  let sq = 0;
  for (const v of values) sq += (v - mean) * (v - mean);
  return Math.sqrt(sq / (values.length - 1));
}
