import type { ApiDeps } from '../../api-deps';
import { subscribeToCore } from '../../subscribe-to-core';
import type { MarathonEvent } from '../../../scheduler/model/events';
import { keepAppTasksAhead } from './list-tasks';

/** An app is kept ahead once no status of its tasks has arrived for this long (its deployment has paused or ended). */
export const TASKS_AHEAD_QUIET_MS = 200;

/** The pass's work per turn of the event loop, at most (it stops after the app that reaches it). */
export const TASKS_AHEAD_TURN_MS = 4;

/** After a turn that worked `w` ms, the pass rests `w ×` this before the next: at most a quarter of a core. */
export const TASKS_AHEAD_REST_FACTOR = 3;

/**
 * Apps asking for more instances than this (their `instances`) are left to the read: keeping one
 * is a single step (its tasks' texts checked and encoded, ~4 µs a task here), and the pass never
 * holds the loop for longer than about this many tasks' work (~20 ms).
 */
export const TASKS_AHEAD_MAX_APP_INSTANCES = 5000;

/** Wall time and timers for the pass (real ones by default; tests give their own). */
export interface AheadClock {
  nowMs(): number;
  /** Calls `fn` once after `ms`; the timer must not keep the process alive. Returns its cancel function. */
  after(ms: number, fn: () => void): () => void;
}

const REAL_CLOCK: AheadClock = {
  nowMs: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * Keeps each app's piece of `GET /v2/tasks` ahead of the reads (list-tasks.ts
 * `keepAppTasksAhead`: its tasks' texts checked and encoded for the core's current token of its
 * instances) once its tasks' statuses have stopped arriving for {@link TASKS_AHEAD_QUIET_MS}, so
 * that the first read after a deployment answers each app's bytes as they are instead of checking
 * and encoding every task (100,000 tasks: ~500 ms of the server's time at the read; issue 13).
 *
 * The apps whose tasks had a `status_update_event` wait in order of their last one (one entry
 * per app: bounded by the apps); a turn keeps the quiet ones for at most
 * {@link TASKS_AHEAD_TURN_MS} (apps over {@link TASKS_AHEAD_MAX_APP_INSTANCES} instances are
 * left to the read), then rests {@link TASKS_AHEAD_REST_FACTOR} times as long. Nothing here can
 * make an answer stale or different: a read still answers a kept piece only while the core's
 * token of the app's instances is the one it was kept for, and lists the app itself otherwise.
 * Never throws into the core or the loop: a failure (or no core, on a standby) leaves the app to
 * the read.
 *
 * Returns the function that stops it (unsubscribes, cancels the timer).
 */
export function keepTasksAhead(deps: ApiDeps, clock: AheadClock = REAL_CLOCK): () => void {
  const waiting = new Map<string, number>();
  let cancel: (() => void) | undefined;
  const schedule = (ms: number): void => {
    if (cancel === undefined) cancel = clock.after(Math.max(1, Math.ceil(ms)), turn);
  };
  const turn = (): void => {
    cancel = undefined;
    const start = clock.nowMs();
    let now = start;
    for (const [appId, lastMs] of waiting) {
      if (now - lastMs < TASKS_AHEAD_QUIET_MS) {
        // The rest of the apps had a status later still: wait for this one's quiet.
        schedule(Math.max(TASKS_AHEAD_QUIET_MS - (now - lastMs), (now - start) * TASKS_AHEAD_REST_FACTOR));
        return;
      }
      waiting.delete(appId);
      keepOne(deps, appId);
      now = clock.nowMs();
      if (now - start >= TASKS_AHEAD_TURN_MS) break;
    }
    if (waiting.size > 0) schedule((now - start) * TASKS_AHEAD_REST_FACTOR);
  };
  const unsubscribe = subscribeToCore(deps, (event: MarathonEvent) => {
    if (event.eventType !== 'status_update_event') return;
    // Last in the order: the map's order is the order of the apps' last statuses.
    waiting.delete(event.appId);
    waiting.set(event.appId, clock.nowMs());
    schedule(TASKS_AHEAD_QUIET_MS);
  });
  return () => {
    unsubscribe();
    cancel?.();
    cancel = undefined;
    waiting.clear();
  };
}

function keepOne(deps: ApiDeps, appId: string): void {
  try {
    const spec = deps.scheduler.runSpec(appId);
    if (spec === undefined || spec.kind !== 'app') return;
    // The app's own count, not its instances: `instances()` copies them into a new array.
    if (spec.instances > TASKS_AHEAD_MAX_APP_INSTANCES) return;
    keepAppTasksAhead(deps, spec);
  } catch {
    // The read lists it.
  }
}
