import type { Clock } from '../../scheduler/ports/clock';
import { EWMA_TICK_MS, Ewma } from './ewma';

/** A meter as `/metrics` writes it (fact 98). */
export interface MeterJson {
  readonly count: number;
  readonly m1_rate: number;
  readonly m5_rate: number;
  readonly m15_rate: number;
  readonly mean_rate: number;
  readonly units: string;
}

/** Ticks caught up at most per read: after this many idle ticks (over an hour) every rate is ~0 anyway. */
const MAX_CATCH_UP_TICKS = 1_000;

/**
 * A Dropwizard-style meter: the number of events, their mean rate since creation and 1/5/15-minute
 * moving-average rates, all per second. Time comes from the API's Clock, so rates follow virtual
 * time in tests and in the simulator.
 */
export class Meter {
  count = 0;
  private readonly startMs: number;
  private lastTickMs: number;
  private readonly m1 = new Ewma(1);
  private readonly m5 = new Ewma(5);
  private readonly m15 = new Ewma(15);

  constructor(private readonly clock: Clock) {
    this.startMs = clock.nowMs();
    this.lastTickMs = this.startMs;
  }

  mark(n = 1): void {
    this.catchUp();
    this.count += n;
    this.m1.update(n);
    this.m5.update(n);
    this.m15.update(n);
  }

  json(): MeterJson {
    this.catchUp();
    return { count: this.count, m1_rate: this.m1.rate(), m5_rate: this.m5.rate(), m15_rate: this.m15.rate(), mean_rate: this.meanRate(), units: 'events/second' };
  }

  /** Events per second since the meter was created (0 before any time has passed). */
  meanRate(): number {
    const elapsedMs = this.clock.nowMs() - this.startMs;
    return elapsedMs <= 0 ? 0 : this.count / (elapsedMs / 1000);
  }

  private catchUp(): void {
    const ticks = Math.floor((this.clock.nowMs() - this.lastTickMs) / EWMA_TICK_MS);
    if (ticks <= 0) return;
    this.lastTickMs += ticks * EWMA_TICK_MS;
    for (let i = 0; i < Math.min(ticks, MAX_CATCH_UP_TICKS); i++) {
      this.m1.tick();
      this.m5.tick();
      this.m15.tick();
    }
  }
}
