/** How often the moving averages of a meter advance (Dropwizard's 5 s tick). */
export const EWMA_TICK_MS = 5_000;

/**
 * An exponentially weighted moving average of an event rate, per second, over a window of
 * `windowMinutes` (the 1-, 5- and 15-minute load-average style rates of Dropwizard meters). Events
 * are added with {@link update}; {@link tick} folds them in once per {@link EWMA_TICK_MS}.
 */
export class Ewma {
  private readonly alpha: number;
  private ratePerSecond = 0;
  private uncounted = 0;
  private initialized = false;

  constructor(windowMinutes: number) {
    this.alpha = 1 - Math.exp(-EWMA_TICK_MS / 1000 / 60 / windowMinutes);
  }

  update(n: number): void {
    this.uncounted += n;
  }

  tick(): void {
    const instantRate = this.uncounted / (EWMA_TICK_MS / 1000);
    this.uncounted = 0;
    this.ratePerSecond = this.initialized ? this.ratePerSecond + this.alpha * (instantRate - this.ratePerSecond) : instantRate;
    this.initialized = true;
  }

  rate(): number {
    return this.ratePerSecond;
  }
}
