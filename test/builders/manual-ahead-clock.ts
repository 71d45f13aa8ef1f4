import type { AheadClock } from '../../src/api/render/keep-ahead';

/** The keep-ahead passes' clock (render/keep-ahead.ts) as a test moves it by hand; `step` fires the one timer the pass may have set when it is due. */
export class ManualAheadClock implements AheadClock {
  now = 0;
  /** How long each call of `nowMs` moves the time on (the cost of the work between two looks). */
  costMs = 0;
  timer: { readonly atMs: number; readonly fn: () => void } | undefined;
  readonly delays: number[] = [];

  nowMs(): number {
    const at = this.now;
    this.now += this.costMs;
    return at;
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { atMs: this.now + ms, fn };
    this.timer = timer;
    this.delays.push(ms);
    return () => {
      if (this.timer === timer) this.timer = undefined;
    };
  }

  /** Moves to the timer's time and fires it; false when none is set. */
  step(): boolean {
    const timer = this.timer;
    if (timer === undefined) return false;
    this.timer = undefined;
    this.now = Math.max(this.now, timer.atMs);
    timer.fn();
    return true;
  }
}

