import type { TimerInput } from '../model/inputs';

/**
 * Timer port. The core never sets timers itself: it asks the loop to post `input` back to
 * `Scheduler.handle` at `dueMs` (absolute, same clock as {@link Clock}).
 */
export interface Timers {
  schedule(dueMs: number, input: TimerInput): number;
  cancel(timerId: number): void;
}
