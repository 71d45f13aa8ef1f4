import type { ApiDeps } from '../api-deps';
import { subscribeToCore } from '../subscribe-to-core';
import type { AppSpec } from '../../scheduler/model/app';
import type { MarathonEvent } from '../../scheduler/model/events';
import type { RunSpec } from '../../scheduler/model/run-spec';

/** An app is kept ahead once nothing that queues it has happened for this long (its deployment has paused or ended). */
export const KEEP_AHEAD_QUIET_MS = 200;

/** The pass's work per turn of the event loop, at most (it stops after the app that reaches it). */
export const KEEP_AHEAD_TURN_MS = 4;

/** After a turn that worked `w` ms, the pass rests `w ×` this before the next: at most a quarter of a core. */
export const KEEP_AHEAD_REST_FACTOR = 3;

/**
 * Apps asking for more instances than this (their `instances`) are left to the read: keeping one
 * is a single step (its tasks' texts checked and encoded, ~4 µs a task here), and the pass never
 * holds the loop for longer than about this many tasks' work (~20 ms).
 */
export const KEEP_AHEAD_MAX_APP_INSTANCES = 5000;

/**
 * Whether the lists' pass (v2/lists-ahead.ts) keeps `spec`'s pieces ahead of the reads: an app
 * without health checks (their results change with every probe, without a new token, so its
 * tasks are made at every read) asking for at most {@link KEEP_AHEAD_MAX_APP_INSTANCES}
 * instances (its own count: `instances()` would copy them to count them). The one place this is
 * decided: the pass keeps these, and task-text-ahead.ts renders the task texts of the others.
 */
export function keptAheadApp(spec: RunSpec | undefined): spec is AppSpec {
  return spec !== undefined && spec.kind === 'app' && spec.healthChecks.length === 0 && spec.instances <= KEEP_AHEAD_MAX_APP_INSTANCES;
}

/** Wall time and timers for the pass (real ones by default; tests give their own). */
export interface AheadClock {
  nowMs(): number;
  /** Calls `fn` once after `ms`; the timer must not keep the process alive. Returns its cancel function. */
  after(ms: number, fn: () => void): () => void;
}

export const REAL_CLOCK: AheadClock = {
  nowMs: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** What a pass keeps, and which core events queue which apps for it. */
export interface AheadWork {
  /** The apps an event queues (none: undefined or empty). */
  appsOf(event: MarathonEvent): readonly string[] | undefined;
  /** Keeps what the reads would make of the app (it may throw: the app is then left to the read). */
  keep(appId: string): void;
  /** Called before each turn's first `keep` (what the keeps of one turn may share is looked up again). */
  beginTurn?(): void;
}

/**
 * A pass that keeps, ahead of the reads, what the list routes would make of each app once the
 * core events that change it (`work.appsOf`) have stopped for {@link KEEP_AHEAD_QUIET_MS}, so
 * that the first read after a deployment finds it made (issue 13: `GET /v2/tasks` and
 * `GET /v2/apps?embed=apps.tasks`, v2/lists-ahead.ts).
 *
 * The queued apps wait in order of their last event (one entry per app: bounded by the apps); a
 * turn keeps the quiet ones for at most {@link KEEP_AHEAD_TURN_MS}, then rests
 * {@link KEEP_AHEAD_REST_FACTOR} times as long. Nothing here can make an answer stale: the reads
 * check what was kept against the core as it is then. Never throws into the core or the loop: a
 * failure (or no core, on a standby) leaves the app to the read.
 *
 * Returns the function that stops it (unsubscribes, cancels the timer).
 */
export function keepAhead(deps: ApiDeps, work: AheadWork, clock: AheadClock = REAL_CLOCK): () => void {
  const waiting = new Map<string, number>();
  let cancel: (() => void) | undefined;
  const schedule = (ms: number): void => {
    if (cancel === undefined) cancel = clock.after(Math.max(1, Math.ceil(ms)), turn);
  };
  const turn = (): void => {
    cancel = undefined;
    const start = clock.nowMs();
    let now = start;
    work.beginTurn?.();
    for (const [appId, lastMs] of waiting) {
      if (now - lastMs < KEEP_AHEAD_QUIET_MS) {
        // The rest of the apps were queued later still: wait for this one's quiet.
        schedule(Math.max(KEEP_AHEAD_QUIET_MS - (now - lastMs), (now - start) * KEEP_AHEAD_REST_FACTOR));
        return;
      }
      waiting.delete(appId);
      try {
        work.keep(appId);
      } catch {
        // The read makes it.
      }
      now = clock.nowMs();
      if (now - start >= KEEP_AHEAD_TURN_MS) break;
    }
    if (waiting.size > 0) schedule((now - start) * KEEP_AHEAD_REST_FACTOR);
  };
  const unsubscribe = subscribeToCore(deps, (event: MarathonEvent) => {
    const apps = work.appsOf(event);
    if (apps === undefined || apps.length === 0) return;
    const nowMs = clock.nowMs();
    for (const appId of apps) {
      // Last in the order: the map's order is the order of the apps' last events.
      waiting.delete(appId);
      waiting.set(appId, nowMs);
    }
    schedule(KEEP_AHEAD_QUIET_MS);
  });
  return () => {
    unsubscribe();
    cancel?.();
    cancel = undefined;
    waiting.clear();
  };
}
