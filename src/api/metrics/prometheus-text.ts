import type { HistogramJson } from './histogram';
import type { MeterJson } from './meter';
import type { MetricsJson, MetricsRegistry } from './metrics-registry';
import type { TimerJson } from './timer';

/** The Content-Type of the Prometheus text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The registry in the Prometheus text exposition format 0.0.4 (fact 99): names with every
 * character outside `[a-zA-Z0-9_:]` turned into `_` (`marathon.apps.active.gauge` →
 * `marathon_apps_active_gauge`); counters and gauges as such; histograms and timers as a `summary`
 * (`quantile` labels, `_count`, `_sum`) plus gauges `_min`, `_max`, `_mean`, `_stddev`; meters and
 * timers' rates as gauges `_m1_rate`, `_m5_rate`, `_m15_rate`, `_mean_rate` (a meter's count as
 * counter `_count`). Every family has its `# HELP` and `# TYPE` lines.
 */
export function prometheusText(registry: MetricsRegistry): string {
  const snapshot: MetricsJson = registry.snapshot();
  const lines: string[] = [];
  const help = (name: string): string => escapeHelp(registry.help(name));
  for (const [name, c] of Object.entries(snapshot.counters)) family(lines, promName(name), 'counter', help(name), c.count);
  for (const [name, g] of Object.entries(snapshot.gauges)) family(lines, promName(name), 'gauge', help(name), g.value);
  for (const [name, h] of Object.entries(snapshot.histograms)) summary(lines, promName(name), help(name), h, registry.sumOf(name));
  for (const [name, m] of Object.entries(snapshot.meters)) meter(lines, promName(name), help(name), m);
  for (const [name, t] of Object.entries(snapshot.timers)) timer(lines, promName(name), help(name), t, registry.sumOf(name));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** A Prometheus-safe metric name. */
export function promName(name: string): string {
  const safe = name.replace(/[^a-zA-Z0-9_:]/g, '_');
  return /^[0-9]/.test(safe) ? `_${safe}` : safe;
}

function family(lines: string[], name: string, type: string, help: string, value: number): void {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${formatValue(value)}`);
}

const QUANTILES: readonly [string, keyof HistogramJson][] = [
  ['0.5', 'p50'], ['0.75', 'p75'], ['0.95', 'p95'], ['0.98', 'p98'], ['0.99', 'p99'], ['0.999', 'p999'],
];

function summary(lines: string[], name: string, help: string, h: HistogramJson, sum: number): void {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} summary`);
  for (const [q, key] of QUANTILES) lines.push(`${name}{quantile="${q}"} ${formatValue(h[key])}`);
  lines.push(`${name}_sum ${formatValue(sum)}`, `${name}_count ${formatValue(h.count)}`);
  for (const key of ['min', 'max', 'mean', 'stddev'] as const) family(lines, `${name}_${key}`, 'gauge', `${help} (${key})`, h[key]);
}

function meter(lines: string[], name: string, help: string, m: MeterJson): void {
  family(lines, `${name}_count`, 'counter', help, m.count);
  rates(lines, name, help, m);
}

function timer(lines: string[], name: string, help: string, t: TimerJson, sum: number): void {
  summary(lines, name, help, t, sum);
  rates(lines, name, help, t);
}

function rates(lines: string[], name: string, help: string, r: Pick<MeterJson, 'm1_rate' | 'm5_rate' | 'm15_rate' | 'mean_rate'>): void {
  for (const key of ['m1_rate', 'm5_rate', 'm15_rate', 'mean_rate'] as const) family(lines, `${name}_${key}`, 'gauge', `${help} (${key}, per second)`, r[key]);
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/** HELP text escaping of the format: backslash and line feed. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}
