import type { Clock } from '../../scheduler/ports/clock';
import { Histogram, type HistogramJson } from './histogram';
import { Meter, type MeterJson } from './meter';

/** A timer as `/metrics` writes it: histogram and meter fields plus their units (fact 98). */
export type TimerJson = HistogramJson & Omit<MeterJson, 'units'> & { readonly duration_units: string; readonly rate_units: string };

/** A Dropwizard-style timer: a histogram of durations (seconds) and a meter of their rate. */
export class Timer {
  readonly histogram = new Histogram();
  private readonly meter: Meter;

  constructor(clock: Clock) {
    this.meter = new Meter(clock);
  }

  /** Record one duration, in seconds. */
  update(seconds: number): void {
    this.histogram.update(seconds);
    this.meter.mark();
  }

  json(): TimerJson {
    const { units: _units, count: _count, ...rates } = this.meter.json();
    return { ...this.histogram.json(), ...rates, duration_units: 'seconds', rate_units: 'calls/second' };
  }
}
