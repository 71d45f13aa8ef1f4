import type { Clock } from '../../scheduler/ports/clock';
import { Counter } from './counter';
import { Histogram, type HistogramJson } from './histogram';
import { Meter, type MeterJson } from './meter';
import { Timer, type TimerJson } from './timer';

/** `GET /metrics`: Marathon 1.11's Dropwizard-shaped snapshot (fact 98). */
export interface MetricsJson {
  readonly version: string;
  readonly counters: Record<string, { readonly count: number }>;
  readonly gauges: Record<string, { readonly value: number }>;
  readonly histograms: Record<string, HistogramJson>;
  readonly meters: Record<string, MeterJson>;
  readonly timers: Record<string, TimerJson>;
}

/** The version field Marathon 1.11 writes (its metrics JSON format version, not the service's). */
export const METRICS_JSON_VERSION = '4.0.0';

type Kind = 'counter' | 'gauge' | 'histogram' | 'meter' | 'timer';

/** What the registry reads of a counter: its own {@link Counter}, or a count kept elsewhere. */
interface CountSource {
  readonly count: number;
}

/**
 * The API's metrics, by Marathon-style name (`marathon.<what>.<type>[.<unit>]`), each with a help
 * text for the Prometheus exposition. Registering a name again returns the existing metric (so
 * lazily created metrics are safe); registering it as another kind throws. Gauges are read at
 * snapshot time; `onSnapshot` callbacks run first so that gauges can share one pass over state.
 */
export class MetricsRegistry {
  private readonly kinds = new Map<string, Kind>();
  private readonly helps = new Map<string, string>();
  private readonly counters = new Map<string, CountSource>();
  private readonly gauges = new Map<string, () => number>();
  private readonly histograms = new Map<string, Histogram>();
  private readonly meters = new Map<string, Meter>();
  private readonly timers = new Map<string, Timer>();
  private readonly beforeSnapshot: (() => void)[] = [];

  constructor(private readonly clock: Clock) {}

  counter(name: string, help: string): Counter {
    const counter = this.register(name, 'counter', help, this.counters, () => new Counter());
    if (!(counter instanceof Counter)) throw new Error(`metric ${name} is counted elsewhere`);
    return counter;
  }

  /**
   * A counter whose count is kept elsewhere (e.g. by a cluster driver as a plain number) and read
   * at snapshot time; it is rendered exactly like a counter of the registry.
   */
  countedElsewhere(name: string, help: string, read: () => number): void {
    this.register(name, 'counter', help, this.counters, (): CountSource => ({ get count() { return read(); } }));
  }

  gauge(name: string, help: string, read: () => number): void {
    this.register(name, 'gauge', help, this.gauges, () => read);
  }

  histogram(name: string, help: string): Histogram {
    return this.register(name, 'histogram', help, this.histograms, () => new Histogram());
  }

  meter(name: string, help: string): Meter {
    return this.register(name, 'meter', help, this.meters, () => new Meter(this.clock));
  }

  timer(name: string, help: string): Timer {
    return this.register(name, 'timer', help, this.timers, () => new Timer(this.clock));
  }

  /** Run `fn` at the start of every snapshot (before gauges are read). */
  onSnapshot(fn: () => void): void {
    this.beforeSnapshot.push(fn);
  }

  /** The help text of a metric. */
  help(name: string): string {
    return this.helps.get(name) ?? name;
  }

  /** The sum of every value a histogram or timer recorded (Prometheus `_sum`); 0 for other names. */
  sumOf(name: string): number {
    return this.histograms.get(name)?.sum ?? this.timers.get(name)?.histogram.sum ?? 0;
  }

  /** Every metric's current value, names sorted within each kind. */
  snapshot(): MetricsJson {
    for (const fn of this.beforeSnapshot) fn();
    return {
      version: METRICS_JSON_VERSION,
      counters: mapSorted(this.counters, (c) => ({ count: c.count })),
      gauges: mapSorted(this.gauges, (read) => ({ value: read() })),
      histograms: mapSorted(this.histograms, (h) => h.json()),
      meters: mapSorted(this.meters, (m) => m.json()),
      timers: mapSorted(this.timers, (t) => t.json()),
    };
  }

  private register<T>(name: string, kind: Kind, help: string, store: Map<string, T>, make: () => T): T {
    const known = this.kinds.get(name);
    if (known !== undefined && known !== kind) throw new Error(`metric ${name} is already a ${known}`);
    const existing = store.get(name);
    if (existing !== undefined) return existing;
    const metric = make();
    this.kinds.set(name, kind);
    this.helps.set(name, help);
    store.set(name, metric);
    return metric;
  }
}

function mapSorted<T, R>(metrics: ReadonlyMap<string, T>, f: (metric: T) => R): Record<string, R> {
  const out: Record<string, R> = {};
  for (const name of [...metrics.keys()].sort()) out[name] = f(metrics.get(name) as T);
  return out;
}
